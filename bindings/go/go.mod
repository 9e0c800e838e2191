module github.com/agenthooks/agenthooks/bindings/go

go 1.22
