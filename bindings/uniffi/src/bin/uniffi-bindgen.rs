//! The uniffi generator in library mode (`make kotlin-gen`): reads the
//! scaffolding metadata out of the built cdylib and writes Kotlin / Swift.
fn main() {
    uniffi::uniffi_bindgen_main()
}
