"""Scripted fake model server for the tier-2 smoke test (Python 3 stdlib only).

Serve:   fake_model.py serve PORT_FILE LOG_FILE COMMAND
  Binds 127.0.0.1:0, writes the port to PORT_FILE atomically, logs each request
  as one JSONL line to LOG_FILE. Speaks Anthropic Messages (POST /v1/messages,
  Claude Code), OpenAI Responses (POST /v1/responses, Codex), OpenAI chat
  completions (POST /v1/chat/completions, Copilot CLI and Kimi Code) and Gemini
  (POST /v1beta/models/M:streamGenerateContent|generateContent|countTokens).
  Turn 1: one shell tool call running COMMAND (Anthropic only: a COMMAND
  of the form `mcp:<tool name>:<JSON input>` calls that tool instead, e.g.
  an MCP tool `mcp__echo__echo`). Later turns (and side requests
  without tools): the text "done"; Gemini's router side call gets the JSON it
  asks for. The turn is the number of earlier assistant turns (tool calls)
  already in the request, so the script is stateless and retry-safe.

Inspect: fake_model.py tool-result LOG_FILE
  Prints the tool result the agent sent back in the first turn-2 request
  (Claude tool_result content / Codex function_call_output output / chat
  completions role:"tool" content / Gemini functionResponse.response as JSON);
  exit 1 if none.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
DONE = "done"


def sse(events):
    return "".join(
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events
    ).encode()


# ---- Anthropic Messages -------------------------------------------------

def anthropic_turn(body):
    if not body.get("tools"):
        return None
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


def shell_args(command):
    """The shell call's arguments: the command, a description, and any extra
    arguments the run asks for (AH_E2E_TOOL_ARGS, a JSON object; the patch
    suite uses it for fields whose effect it can observe)."""
    args = {"command": command, "description": "smoke test command"}
    args.update(json.loads(os.environ.get("AH_E2E_TOOL_ARGS") or "{}"))
    return args


def anthropic_answer(body, turn, command):
    if turn == 0 and command.startswith("mcp:"):
        _, name, args = command.split(":", 2)
        block = {"type": "tool_use", "id": "toolu_e2e_1", "name": name, "input": {}}
        full = dict(block, input=json.loads(args))
        delta = {"type": "input_json_delta", "partial_json": json.dumps(full["input"])}
        stop = "tool_use"
    elif turn == 0:
        block = {"type": "tool_use", "id": "toolu_e2e_1", "name": "Bash", "input": {}}
        full = dict(block, input=shell_args(command))
        delta = {"type": "input_json_delta", "partial_json": json.dumps(full["input"])}
        stop = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        full = dict(block, text=DONE)
        delta = {"type": "text_delta", "text": DONE}
        stop = "end_turn"
    usage = {"input_tokens": 10, "output_tokens": 5}
    msg = {"id": f"msg_e2e_{turn}", "type": "message", "role": "assistant",
           "model": body.get("model", "fake"), "stop_sequence": None}
    if not body.get("stream"):
        return "application/json", json.dumps(
            dict(msg, content=[full], stop_reason=stop, usage=usage)).encode()
    return "text/event-stream", sse([
        {"type": "message_start", "message": dict(msg, content=[], stop_reason=None,
                                                  usage={"input_tokens": 10, "output_tokens": 1})},
        {"type": "content_block_start", "index": 0, "content_block": block},
        {"type": "content_block_delta", "index": 0, "delta": delta},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
         "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ])


# ---- OpenAI Responses ---------------------------------------------------

def responses_turn(body):
    if not body.get("tools"):
        return None
    items = body.get("input") or []
    if not isinstance(items, list):
        return 0
    return sum(1 for i in items if i.get("type") == "function_call"
               or (i.get("type") == "message" and i.get("role") == "assistant"))


def responses_answer(body, turn, command):
    rid = f"resp_e2e_{turn}"
    if turn == 0:
        args = json.dumps({"cmd": command})
        item = {"type": "function_call", "id": "fc_e2e_1", "call_id": "call_e2e_1",
                "name": "exec_command", "arguments": args, "status": "completed"}
        middle = [
            {"type": "response.output_item.added", "output_index": 0,
             "item": dict(item, arguments="", status="in_progress")},
            {"type": "response.function_call_arguments.delta", "item_id": item["id"],
             "output_index": 0, "delta": args},
            {"type": "response.function_call_arguments.done", "item_id": item["id"],
             "output_index": 0, "arguments": args},
        ]
    else:
        part = {"type": "output_text", "text": DONE, "annotations": []}
        item = {"type": "message", "id": "msg_e2e_1", "role": "assistant",
                "status": "completed", "content": [part]}
        ref = {"item_id": item["id"], "output_index": 0, "content_index": 0}
        middle = [
            {"type": "response.output_item.added", "output_index": 0,
             "item": dict(item, status="in_progress", content=[])},
            dict(ref, type="response.content_part.added", part=dict(part, text="")),
            dict(ref, type="response.output_text.delta", delta=DONE),
            dict(ref, type="response.output_text.done", text=DONE),
            dict(ref, type="response.content_part.done", part=part),
        ]
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": 15}
    resp = {"id": rid, "object": "response", "created_at": int(time.time()),
            "model": body.get("model", "fake"), "output": []}
    done = dict(resp, status="completed", output=[item], usage=usage)
    if not body.get("stream"):
        return "application/json", json.dumps(done).encode()
    events = [
        {"type": "response.created", "response": dict(resp, status="in_progress")},
        {"type": "response.in_progress", "response": dict(resp, status="in_progress")},
        *middle,
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": done},
    ]
    for n, e in enumerate(events):
        e["sequence_number"] = n
    return "text/event-stream", sse(events)


# ---- OpenAI chat completions (Copilot CLI, Kimi Code) --------------------

def chat_turn(body):
    if not body.get("tools"):
        return None
    return sum(1 for m in body.get("messages") or [] if m.get("role") == "assistant")


def chat_shell_tool(body):
    """The agent's shell tool: Copilot calls it "bash", Kimi Code "Bash"."""
    names = [(t.get("function") or {}).get("name") or t.get("name") or ""
             for t in body.get("tools") or []]
    return next((n for n in names if n.lower() in ("bash", "shell")), "bash")


def chat_answer(body, turn, command):
    cid, created, model = f"chatcmpl-e2e-{turn}", int(time.time()), body.get("model", "fake")
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if turn == 0:
        call = {"id": "call_e2e_1", "type": "function",
                "function": {"name": chat_shell_tool(body),
                             "arguments": json.dumps(shell_args(command))}}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        deltas = [{"role": "assistant", "content": ""},
                  {"tool_calls": [dict(call, index=0, function=dict(call["function"], arguments=""))]},
                  {"tool_calls": [{"index": 0, "function": {"arguments": call["function"]["arguments"]}}]}]
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": DONE}
        deltas = [{"role": "assistant", "content": ""}, {"content": DONE}]
        finish = "stop"
    head = {"id": cid, "object": "chat.completion", "created": created, "model": model}
    if not body.get("stream"):
        return "application/json", json.dumps(dict(head, usage=usage, choices=[
            {"index": 0, "message": message, "finish_reason": finish}])).encode()
    head["object"] = "chat.completion.chunk"
    chunks = [dict(head, choices=[{"index": 0, "delta": d, "finish_reason": None}]) for d in deltas]
    chunks.append(dict(head, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]))
    chunks.append(dict(head, choices=[], usage=usage))
    return "text/event-stream", ("".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
                                 + "data: [DONE]\n\n").encode()


# ---- Gemini generateContent (Gemini CLI) ---------------------------------

def gemini_turn(body):
    if not body.get("tools"):
        return None  # the router side call (generationConfig.responseJsonSchema) has no tools
    return sum(1 for c in body.get("contents") or [] if c.get("role") == "model"
               and any("functionCall" in p for p in c.get("parts") or []))


def gemini_answer(body, turn, command, path=""):
    if path.endswith(":countTokens"):
        return "application/json", json.dumps({"totalTokens": 10}).encode()
    schema = (body.get("generationConfig") or {}).get("responseJsonSchema")
    if not body.get("tools") and schema:  # router: answer the JSON object it asks for
        parts = [{"text": json.dumps({"complexity_reasoning": "a single shell command",
                                      "complexity_score": 1})}]
    elif turn == 0 and body.get("tools"):
        parts = [{"functionCall": {"name": "run_shell_command",
                                   "args": shell_args(command)}}]
    else:
        parts = [{"text": DONE}]
    resp = {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                              "totalTokenCount": 15},
            "modelVersion": "fake-model"}
    if ":streamGenerateContent" in path:
        return "text/event-stream", f"data: {json.dumps(resp)}\n\n".encode()
    return "application/json", json.dumps(resp).encode()


ROUTES = {
    "/v1/messages": (anthropic_turn, anthropic_answer),
    "/v1/responses": (responses_turn, responses_answer),
    "/v1/chat/completions": (chat_turn, chat_answer),
}
GEMINI_PREFIX = "/v1beta/models/"
GEMINI_METHODS = (":streamGenerateContent", ":generateContent", ":countTokens")


def route_for(path):
    if path in ROUTES:
        return ROUTES[path]
    if path.startswith(GEMINI_PREFIX) and path.endswith(GEMINI_METHODS):
        return gemini_turn, lambda body, turn, command: gemini_answer(body, turn, command, path)
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.handle_any(None)

    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        self.handle_any(body)

    def handle_any(self, body):
        route = route_for(self.path.split("?")[0]) if isinstance(body, dict) else None
        turn = route[0](body) if route else None
        entry = {"time": time.time(), "method": self.command, "path": self.path,
                 "headers": dict(self.headers), "body": body, "turn": turn}
        with LOCK, open(self.server.log_file, "a") as f:
            f.write(json.dumps(entry) + "\n")
        if route is None:
            status, ctype, data = 404, "application/json", b'{"error":"not found"}'
        else:
            status = 200
            ctype, data = route[1](body, 1 if turn is None else turn, self.server.command)
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(port_file, log_file, command):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.log_file, srv.command = log_file, command
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, port_file)
    srv.serve_forever()


def tool_result(log_file):
    with open(log_file) as f:
        reqs = [json.loads(line) for line in f if line.strip()]
    for r in reqs:
        if not r.get("turn"):
            continue
        body = r["body"]
        for m in body.get("messages", []):  # Anthropic: user tool_result block
            for b in m.get("content") if isinstance(m.get("content"), list) else []:
                if b.get("type") == "tool_result":
                    c = b.get("content")
                    if isinstance(c, list):
                        c = "".join(x.get("text", "") for x in c)
                    return c
        for i in body.get("input") or []:  # Responses: function_call_output item
            if i.get("type") == "function_call_output":
                o = i.get("output")
                return o if isinstance(o, str) else json.dumps(o)
        for m in body.get("messages") or []:  # chat completions: role "tool" message
            if m.get("role") == "tool":
                c = m.get("content")
                if isinstance(c, list):
                    c = "".join(x.get("text", "") for x in c if isinstance(x, dict))
                return c if isinstance(c, str) else json.dumps(c)
        for c in body.get("contents") or []:  # Gemini: functionResponse part
            for p in c.get("parts") or []:
                if "functionResponse" in p:
                    return json.dumps(p["functionResponse"].get("response"))
    return None


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "serve":
        serve(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "tool-result":
        out = tool_result(sys.argv[2])
        if out is None:
            sys.exit(1)
        print(out)
    else:
        sys.exit(__doc__)
