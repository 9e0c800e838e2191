/* The C ABI test: walks every shared fixture (provider and router
 * families, flattened by flatten_fixtures.py) through include/agenthooks.h,
 * then calls every function on its success and error paths (NULLs,
 * invalid UTF-8, bad JSON, double calls). Built with -std=c11 -Wall
 * -Werror and run under valgrind by `make c-test`.
 *
 * The serve vectors run in serve_vectors.c.
 *
 * usage: abi_test <flattened fixtures dir> <fixtures dir>   (AH_FIXTURE=<substring> filters) */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agenthooks.h"
#include "json.h"
#include "serve_vectors.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                      \
  do {                                                        \
    checks++;                                                 \
    if (!(cond)) {                                            \
      failures++;                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);    \
      fprintf(stderr, __VA_ARGS__);                           \
      fprintf(stderr, "\n");                                  \
    }                                                         \
  } while (0)

/* A string literal as (const uint8_t *, size_t). */
#define S(lit) (const uint8_t *)(lit), strlen(lit)

static const char *id(ah_status s) { return ah_status_id(s); }

static bool str_eq(ah_str s, const char *want) {
  return s.ptr != NULL && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0 && s.ptr[s.len] == '\0';
}

static bool contains(const char *hay, size_t hlen, const char *needle, size_t nlen) {
  if (nlen == 0) return true;
  for (size_t i = 0; i + nlen <= hlen; i++)
    if (memcmp(hay + i, needle, nlen) == 0) return true;
  return false;
}

/* Reads <dir>/<name>; NULL when absent. The buffer is NUL-terminated. */
static char *read_file(const char *dir, const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (!buf) abort();
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  buf[got] = '\0';
  if (len) *len = got;
  return buf;
}

static long read_long(const char *dir, const char *name, long dflt) {
  char *s = read_file(dir, name, NULL);
  if (!s) return dflt;
  long v = strtol(s, NULL, 10);
  free(s);
  return v;
}

/* Builds a generated payload (see flatten_fixtures.py). */
static char *gen_payload(const char *dir, const char *spec, size_t *len) {
  char kind[32] = {0}, field[256] = {0};
  size_t n = 0;
  if (sscanf(spec, "%31s %zu %255s", kind, &n, field) < 2) return NULL;
  char *out;
  if (strcmp(kind, "deep") == 0) {
    out = malloc(2 * n + 1);
    memset(out, '[', n);
    memset(out + n, ']', n);
    *len = 2 * n;
  } else if (strcmp(kind, "big_string") == 0) {
    out = malloc(n + 3);
    out[0] = '"';
    memset(out + 1, 'x', n);
    out[n + 1] = '"';
    *len = n + 2;
  } else if (strcmp(kind, "big_field") == 0) {
    size_t blen;
    char *base = read_file(dir, "payload_base.json", &blen);
    if (!base || blen < 2) abort();
    size_t flen = strlen(field);
    out = malloc(blen + flen + n + 8);
    size_t k = blen - 1; /* drop the closing brace */
    memcpy(out, base, k);
    if (blen > 2) out[k++] = ',';
    out[k++] = '"';
    memcpy(out + k, field, flen);
    k += flen;
    out[k++] = '"';
    out[k++] = ':';
    out[k++] = '"';
    memset(out + k, 'x', n);
    k += n;
    out[k++] = '"';
    out[k++] = '}';
    *len = k;
    free(base);
  } else {
    return NULL;
  }
  return out;
}

/* ---------------------------------------------------------------- wire */

static bool notes_match(const char *name, int i, ah_str got, const char *want_text) {
  jval *g = json_parse(got.ptr, got.len);
  jval *w = json_parse(want_text, strlen(want_text));
  bool ok = g && w && g->type == J_ARR && w->type == J_ARR && g->n == w->n;
  for (size_t k = 0; ok && k < g->n; k++) {
    const char *fields[] = {"code", "from", "to"};
    for (int f = 0; f < 3; f++) {
      const jval *a = json_get(g->items[k], fields[f]);
      const jval *b = json_get(w->items[k], fields[f]);
      if ((a == NULL) != (b == NULL) || (a && !json_equal(a, b))) ok = false;
    }
  }
  if (!ok) fprintf(stderr, "  %s: response %d: notes %.*s, want %s\n", name, i, (int)got.len, got.ptr, want_text);
  json_free(g);
  json_free(w);
  return ok;
}

static void check_wire(const char *dir, const char *name, int i, const ah_response *r) {
  char key[64];
  snprintf(key, sizeof key, "r%d.exit", i);
  long want_exit = read_long(dir, key, -999);
  ah_str out = ah_response_stdout(r), err = ah_response_stderr(r);
  CHECK(ah_response_exit_code(r) == want_exit, "%s: response %d: exit %d, want %ld (stdout %.*s, stderr %.*s)", name,
        i, ah_response_exit_code(r), want_exit, (int)out.len, out.ptr, (int)err.len, err.ptr);
  CHECK(out.ptr != NULL && err.ptr != NULL, "%s: response %d: NULL views", name, i);
  size_t wlen;
  snprintf(key, sizeof key, "r%d.stdout.json", i);
  char *w = read_file(dir, key, &wlen);
  if (w) {
    jval *a = json_parse(out.ptr, out.len), *b = json_parse(w, wlen);
    CHECK(a && b && json_equal(a, b), "%s: response %d: stdout JSON %.*s, want %s", name, i, (int)out.len, out.ptr, w);
    json_free(a);
    json_free(b);
  } else {
    snprintf(key, sizeof key, "r%d.stdout", i);
    w = read_file(dir, key, &wlen);
    CHECK(w && out.len == wlen && memcmp(out.ptr, w, wlen) == 0, "%s: response %d: stdout %.*s, want %s", name, i,
          (int)out.len, out.ptr, w ? w : "(missing)");
  }
  free(w);
  snprintf(key, sizeof key, "r%d.stderr", i);
  w = read_file(dir, key, &wlen);
  if (w) {
    CHECK(err.len == wlen && memcmp(err.ptr, w, wlen) == 0, "%s: response %d: stderr %.*s, want %s", name, i,
          (int)err.len, err.ptr, w);
    free(w);
  }
  snprintf(key, sizeof key, "r%d.stderr_contains", i);
  w = read_file(dir, key, &wlen);
  if (w) {
    CHECK(contains(err.ptr, err.len, w, wlen), "%s: response %d: stderr %.*s lacks %s", name, i, (int)err.len, err.ptr,
          w);
    free(w);
  }
  snprintf(key, sizeof key, "r%d.notes.json", i);
  w = read_file(dir, key, NULL);
  CHECK(w && notes_match(name, i, ah_response_notes_json(r), w), "%s: response %d: notes", name, i);
  free(w);
  /* The whole-response JSON agrees with the getters. */
  ah_str all = ah_response_json(r);
  jval *j = json_parse(all.ptr, all.len);
  CHECK(j && json_get(j, "exit_code") != NULL, "%s: response %d: ah_response_json", name, i);
  json_free(j);
}

/* ------------------------------------------------------ provider cases */

static void run_provider_case(const char *dir, const char *name) {
  size_t plen = 0;
  char *provider = read_file(dir, "provider", NULL);
  char *payload = read_file(dir, "payload", &plen);
  if (!payload) {
    char *spec = read_file(dir, "payload_gen", NULL);
    payload = spec ? gen_payload(dir, spec, &plen) : NULL;
    free(spec);
  }
  CHECK(provider && payload, "%s: unreadable case", name);
  if (!provider || !payload) {
    free(provider);
    free(payload);
    return;
  }
  char *variant = read_file(dir, "variant", NULL);
  char *event = read_file(dir, "event", NULL);
  ah_decode_options *opts = NULL;
  if (variant || event) {
    opts = ah_decode_options_new();
    if (variant) CHECK(ah_decode_options_set_variant(opts, S(variant), NULL) == AH_OK, "%s: variant", name);
    if (event) CHECK(ah_decode_options_set_event(opts, S(event), NULL) == AH_OK, "%s: event", name);
  }
  size_t alen = 0;
  char *argv_file = read_file(dir, "argv", &alen);
  char *env = read_file(dir, "env.json", NULL);
  if (argv_file || env) {
    /* Detection cases: the provider must be found from argv/env/shape
     * (a --provider in argv is the flag), and the decode records how. */
    const char *argv[64];
    size_t argc = 0;
    for (size_t k = 0; k < alen && argc < 64; k += strlen(argv_file + k) + 1) argv[argc++] = argv_file + k;
    ah_run_args *ra = NULL;
    char *flag = NULL;
    if (ah_run_args_parse(argv, argc, &ra, NULL) == AH_OK && ra) {
      ah_str aj = ah_run_args_json(ra);
      jval *j = json_parse(aj.ptr, aj.len);
      const jval *p = json_get(j, "provider");
      if (p && p->type == J_STR) flag = strdup(p->s);
      json_free(j);
    }
    ah_run_args_free(ra);
    ah_buf *det = NULL;
    ah_error *derr0 = NULL;
    ah_status ds = ah_detect((const uint8_t *)flag, flag ? strlen(flag) : 0, argv, argc, (const uint8_t *)(env ? env : "{}"),
                             env ? strlen(env) : 2, (const uint8_t *)payload, plen, &det, &derr0);
    CHECK(ds == AH_OK, "%s: detection failed: %s", name, id(ds));
    if (ds == AH_OK) {
      jval *j = json_parse(ah_buf_str(det).ptr, ah_buf_str(det).len);
      ah_str want = {0};
      CHECK(ah_provider_parse(S(provider), &want, NULL) == AH_OK && json_str_is(json_get(j, "provider"), want.ptr),
            "%s: detected %s, want %s", name, ah_buf_str(det).ptr, provider);
      if (!opts) opts = ah_decode_options_new();
      const jval *how = json_get(j, "detection"), *var = json_get(j, "variant");
      CHECK(how && ah_decode_options_set_detection(opts, (const uint8_t *)how->s, how->slen, NULL) == AH_OK,
            "%s: detection", name);
      if (!variant && var) ah_decode_options_set_variant(opts, (const uint8_t *)var->s, var->slen, NULL);
      json_free(j);
    }
    ah_buf_free(det);
    ah_error_free(derr0);
    free(flag);
  }
  free(argv_file);
  free(env);
  ah_event *ev = NULL;
  ah_error *derr = NULL;
  ah_status st = ah_event_decode(S(provider), (const uint8_t *)payload, plen, opts, &ev, &derr);
  size_t elen;
  char *want_event = read_file(dir, "expect_event.json", &elen);
  char *want_error = read_file(dir, "expect_error", NULL);
  if (want_event) {
    CHECK(st == AH_OK, "%s: decode failed: %s %.*s", name, id(st), (int)ah_error_message(derr).len,
          ah_error_message(derr).ptr);
    if (st == AH_OK) {
      ah_str js = ah_event_json(ev);
      jval *got = json_parse(js.ptr, js.len);
      jval *raw_parsed = json_parse(payload, plen);
      CHECK(got && raw_parsed && json_equal(json_get(got, "raw"), raw_parsed), "%s: canonical raw", name);
      json_remove(got, "raw");
      jval *want = json_parse(want_event, elen);
      CHECK(got && want && json_equal(got, want), "%s: canonical event\n   got: %.*s\n  want: %s", name,
            (int)(js.len > 2000 ? 2000 : js.len), js.ptr, want_event);
      /* The head (no output, no raw) and the output read apart are the
         canonical event. */
      ah_str hj = ah_event_head_json(ev), oj = ah_event_output_json(ev);
      jval *head = json_parse(hj.ptr, hj.len);
      jval *out = oj.ptr ? json_parse(oj.ptr, oj.len) : NULL;
      const jval *gout = got ? json_get(got, "output") : NULL;
      CHECK(gout ? (out && json_equal(out, gout)) : (oj.ptr == NULL && oj.len == 0), "%s: output_json", name);
      if (got) json_remove(got, "output");
      CHECK(head && !json_get(head, "output") && !json_get(head, "raw") && json_equal(head, got), "%s: head_json",
            name);
      CHECK(hj.ptr == ah_event_head_json(ev).ptr && hj.ptr[hj.len] == '\0', "%s: head_json cached", name);
      json_free(head);
      json_free(out);
      json_free(got);
      json_free(want);
      json_free(raw_parsed);
      ah_str raw = ah_event_raw(ev);
      CHECK(raw.len == plen && memcmp(raw.ptr, payload, plen) == 0 && raw.ptr[raw.len] == '\0',
            "%s: raw must be byte-identical", name);
      CHECK(ah_event_provider(ev).len > 0 && ah_event_kind(ev).len > 0 && ah_event_native_name(ev).ptr != NULL,
            "%s: getters", name);
    }
  } else {
    CHECK(want_error != NULL, "%s: expect needs event or error", name);
    CHECK(st != AH_OK && want_error && strcmp(id(st), want_error) == 0, "%s: decode status %s, want %s", name, id(st),
          want_error ? want_error : "?");
    CHECK(derr != NULL && ah_error_code(derr) == st, "%s: error handle", name);
  }
  int nresp = (int)read_long(dir, "nresp", 0);
  for (int i = 0; i < nresp; i++) {
    char key[64];
    size_t dlen = 0, polen = 0;
    snprintf(key, sizeof key, "r%d.decision.json", i);
    char *decision = read_file(dir, key, &dlen);
    snprintf(key, sizeof key, "r%d.policy.json", i);
    char *policy = read_file(dir, key, &polen);
    snprintf(key, sizeof key, "r%d.error", i);
    char *rerr_code = read_file(dir, key, NULL);
    ah_response *r = NULL;
    if (st != AH_OK) {
      CHECK(rerr_code == NULL, "%s: response %d: error is implied on error cases", name, i);
      ah_status s2 = ah_fail_response_for_payload(S(provider), (const uint8_t *)payload, plen, derr,
                                                  (const uint8_t *)policy, polen, &r, NULL);
      CHECK(s2 == AH_OK, "%s: response %d: fail_response_for_payload %s", name, i, id(s2));
    } else {
      ah_error *rerr = NULL;
      ah_status s2 = ah_event_respond(ev, (const uint8_t *)decision, dlen, (const uint8_t *)policy, polen, &r, &rerr);
      if (rerr_code) {
        CHECK(s2 != AH_OK && strcmp(id(s2), rerr_code) == 0, "%s: response %d: status %s, want %s", name, i, id(s2),
              rerr_code);
        CHECK(r == NULL, "%s: response %d: out written on failure", name, i);
        if (s2 != AH_OK) {
          s2 = ah_event_fail_response(ev, rerr, (const uint8_t *)policy, polen, &r, NULL);
          CHECK(s2 == AH_OK, "%s: response %d: fail_response %s", name, i, id(s2));
        }
      } else {
        CHECK(s2 == AH_OK, "%s: response %d: respond failed: %s %.*s", name, i, id(s2),
              (int)ah_error_message(rerr).len, ah_error_message(rerr).ptr);
      }
      ah_error_free(rerr);
    }
    if (r) check_wire(dir, name, i, r);
    ah_response_free(r);
    free(decision);
    free(policy);
    free(rerr_code);
  }
  ah_event_free(ev);
  ah_error_free(derr);
  ah_decode_options_free(opts);
  free(want_event);
  free(want_error);
  free(provider);
  free(payload);
  free(variant);
  free(event);
}

/* -------------------------------------------------------- router cases */

/* Compares decision JSON, normalizing the expected form through the core. */
static bool decision_equal(ah_str got, const char *want) {
  ah_buf *norm = NULL;
  if (ah_decision_normalize(S(want), &norm, NULL) != AH_OK) return false;
  ah_str w = ah_buf_str(norm);
  jval *a = json_parse(got.ptr, got.len), *b = json_parse(w.ptr, w.len);
  bool ok = a && b && json_equal(a, b);
  json_free(a);
  json_free(b);
  ah_buf_free(norm);
  return ok;
}

static void run_router_case(const char *dir, const char *name) {
  char *mode = read_file(dir, "mode", NULL);
  int n = (int)read_long(dir, "nhandlers", 0);
  int called = 0;
  const char *error = NULL;
  ah_buf *result = NULL;
  bool all = mode && strcmp(mode, "all") == 0;
  ah_fold *fold = all ? NULL : ah_fold_new();
  /* `all` collects every decision into a JSON array for ah_merge_all. */
  size_t cap = 16, alen = 0;
  char *arr = malloc(cap);
  arr[alen++] = '[';
  for (int i = 0; i < n; i++) {
    char key[64];
    size_t dlen;
    snprintf(key, sizeof key, "h%d.decision.json", i);
    char *d = read_file(dir, key, &dlen);
    called++;
    if (!d) { /* a handler that fails: the chain stops with handler_error */
      error = "handler_error";
      break;
    }
    if (all) {
      while (alen + dlen + 3 > cap) cap *= 2;
      arr = realloc(arr, cap);
      if (alen > 1) arr[alen++] = ',';
      memcpy(arr + alen, d, dlen);
      alen += dlen;
      free(d);
    } else {
      bool done = false;
      ah_status st = ah_fold_push(fold, (const uint8_t *)d, dlen, &done, NULL);
      free(d);
      CHECK(st == AH_OK, "%s: push %s", name, id(st));
      CHECK(done == ah_fold_is_done(fold), "%s: is_done", name);
      if (done) break;
    }
  }
  arr[alen++] = ']';
  if (!error) {
    ah_status st = all ? ah_merge_all((const uint8_t *)arr, alen, &result, NULL) : ah_fold_finish(fold, &result, NULL);
    CHECK(st == AH_OK, "%s: merge %s", name, id(st));
  }
  char *want = read_file(dir, "expect.decision.json", NULL);
  char *want_error = read_file(dir, "expect_error", NULL);
  if (want) {
    CHECK(result && decision_equal(ah_buf_str(result), want), "%s: decision %s, want %s", name,
          result ? ah_buf_str(result).ptr : error, want);
  } else {
    CHECK(error && want_error && strcmp(error, want_error) == 0, "%s: want error %s", name, want_error);
  }
  CHECK(called == read_long(dir, "called", -1), "%s: called %d handlers, want %ld", name, called,
        read_long(dir, "called", -1));
  ah_buf_free(result);
  ah_fold_free(fold);
  free(arr);
  free(mode);
  free(want);
  free(want_error);
}

/* ---------------------------------------------------- dispatch vectors */

/* fixtures/router/README.md, dispatch vectors: every vector registered
 * with ah_router_add and driven through ah_dispatch_* as a binding does
 * (observers, guards, middleware with nested ah_dispatch_enter, handlers).
 * C has no async callables: "async" entries run synchronously. */

enum { ROLE_HANDLER = 0, ROLE_OBSERVER = 1, ROLE_MIDDLEWARE = 2 };
enum { RET_NULL, RET_INNER, RET_DECISION };

typedef struct {
  char *id;
  uint32_t role;
  char *on, *when;
  bool guard;           /* what the predicate answers (when == "guard") */
  bool guard_held;      /* the last guard step for it answered true */
  char *decision;       /* handler: its decision JSON (NULL: no decision) */
  size_t decision_len;
  char *error;          /* fails with this text (NULL: does not fail) */
  long next;            /* middleware: how many times it calls next */
  int ret;              /* middleware: RET_* */
  char *ret_json;       /* RET_DECISION: the decision it returns */
  size_t ret_len;
} dentry;

typedef struct {
  const char *name;
  dentry *e;
  uint32_t n;
  ah_router *router;
  ah_dispatch *d;
  /* The event's key (ah_dispatch_new / ah_dispatch_enter). */
  ah_str kind, native;
  const jval *tool, *canonical; /* J_STR or NULL */
  char calls[1024];             /* the ids called, one a line */
  size_t calls_len;
} dcase;

static void log_call(dcase *c, const dentry *e) {
  size_t n = strlen(e->id);
  if (c->calls_len + n + 1 < sizeof c->calls) {
    memcpy(c->calls + c->calls_len, e->id, n);
    c->calls_len += n;
    c->calls[c->calls_len++] = '\n';
    c->calls[c->calls_len] = '\0';
  }
}

/* The key's optional parts: NULL with length 0 when the event has no tool. */
static const uint8_t *opt_ptr(const jval *v) { return v ? (const uint8_t *)v->s : NULL; }
static size_t opt_len(const jval *v) { return v ? v->slen : 0; }

static ah_status dispatch_drive(dcase *c, ah_buf **out, ah_error **err);

/* A middleware: calls next `e->next` times (catching next's errors), then
 * fails, or returns next's first answer / nothing / its own decision. */
static void run_middleware(dcase *c, const dentry *e, uint32_t level) {
  ah_buf *inner = NULL;
  ah_error *nerr = NULL;
  for (long k = 0; k < e->next; k++) {
    ah_buf *b = NULL;
    ah_error *ee = NULL;
    ah_status st = ah_dispatch_enter(c->d, c->router, level, (const uint8_t *)c->kind.ptr, c->kind.len, (const uint8_t *)c->native.ptr, c->native.len, opt_ptr(c->tool),
                                     opt_len(c->tool), opt_ptr(c->canonical), opt_len(c->canonical), &ee);
    if (st == AH_OK) {
      CHECK(ee == NULL, "%s: enter OK with an error", c->name);
      st = dispatch_drive(c, &b, &ee);
    } else {
      /* Only a second call of next may fail here. */
      CHECK(st == AH_ERR_HANDLER_ERROR && k > 0 && ee && ah_error_code(ee) == st, "%s: enter at level %u: %s",
            c->name, level, id(st));
    }
    if (st == AH_OK) {
      CHECK(b != NULL && ee == NULL, "%s: next answered without a decision", c->name);
      if (!inner) {
        inner = b;
        b = NULL;
      }
    } else {
      CHECK(b == NULL && ee != NULL && ah_error_code(ee) == st, "%s: next's error", c->name);
      ah_error_free(nerr);
      nerr = ee;
      ee = NULL;
    }
    ah_buf_free(b);
    ah_error_free(ee);
  }
  ah_status st;
  if (e->error) {
    st = ah_dispatch_give_error(c->d, S("handler_error"), S(e->error), NULL);
  } else if (e->ret == RET_INNER && inner) {
    ah_str s = ah_buf_str(inner);
    st = ah_dispatch_give(c->d, (const uint8_t *)s.ptr, s.len, NULL);
  } else if (e->ret == RET_INNER && nerr) { /* re-raises next's error */
    ah_str m = ah_error_message(nerr);
    st = ah_dispatch_give_error(c->d, S(ah_status_id(ah_error_code(nerr))), (const uint8_t *)m.ptr, m.len, NULL);
  } else if (e->ret == RET_DECISION) {
    st = ah_dispatch_give(c->d, (const uint8_t *)e->ret_json, e->ret_len, NULL);
  } else {
    st = ah_dispatch_give(c->d, NULL, 0, NULL);
  }
  CHECK(st == AH_OK, "%s: middleware %s: give %s", c->name, e->id, id(st));
  ah_buf_free(inner);
  ah_error_free(nerr);
}

/* Calls what the dispatch asks for until the current level answers. */
static ah_status dispatch_drive(dcase *c, ah_buf **out, ah_error **err) {
  for (int steps = 0; steps < 1000; steps++) {
    uint32_t i = UINT32_MAX, level = UINT32_MAX;
    uint32_t tag = ah_dispatch_step(c->d, &i, &level);
    if (tag == 4) return ah_dispatch_result(c->d, out, err);
    dentry *e = i < c->n ? &c->e[i] : NULL;
    uint32_t want_role = tag == 0 ? ROLE_OBSERVER : tag == 1 ? ROLE_MIDDLEWARE : ROLE_HANDLER;
    if (tag > 4 || !e || e->role != want_role) {
      CHECK(false, "%s: step tag %u for entry %u", c->name, tag, i);
      return AH_ERR_PANIC;
    }
    ah_status st = AH_OK;
    switch (tag) {
    case 0: /* observer */
      log_call(c, e);
      st = e->error ? ah_dispatch_give_error(c->d, NULL, 0, S(e->error), NULL) : ah_dispatch_give(c->d, NULL, 0, NULL);
      break;
    case 1: /* middleware */
      log_call(c, e);
      run_middleware(c, e, level);
      break;
    case 2: /* guard: only for a `when: guard` handler */
      CHECK(e->when && strcmp(e->when, "guard") == 0, "%s: guard step for %s", c->name, e->id);
      e->guard_held = e->guard;
      ah_dispatch_guard(c->d, e->guard);
      break;
    default: /* handler */
      CHECK(!e->when || strcmp(e->when, "guard") != 0 || e->guard_held, "%s: %s called, its guard unasked or false",
            c->name, e->id);
      e->guard_held = false;
      log_call(c, e);
      st = e->error ? ah_dispatch_give_error(c->d, S("handler_error"), S(e->error), NULL)
                    : ah_dispatch_give(c->d, (const uint8_t *)e->decision, e->decision_len, NULL);
      break;
    }
    CHECK(st == AH_OK, "%s: give to %s: %s", c->name, e->id, id(st));
  }
  CHECK(false, "%s: the dispatch did not finish", c->name);
  return AH_ERR_PANIC;
}

static char *entry_file(const char *dir, uint32_t j, const char *part, size_t *len) {
  char key[64];
  snprintf(key, sizeof key, "e%u.%s", j, part);
  return read_file(dir, key, len);
}

/* Reads stderr captured in `f` (rewound), NUL-terminated. */
static char *slurp(FILE *f, size_t *len) {
  fflush(f);
  long n = ftell(f);
  char *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (!buf) abort();
  rewind(f);
  size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
  buf[got] = '\0';
  *len = got;
  return buf;
}

static void run_dispatch_case(const char *dir, const char *name) {
  int failures_before = failures;
  dcase c = {.name = name};
  size_t plen = 0;
  char *provider = read_file(dir, "provider", NULL);
  char *payload = read_file(dir, "payload", &plen);
  long n = read_long(dir, "nentries", -1);
  CHECK(provider && payload && n >= 0, "%s: unreadable vector", name);
  if (!provider || !payload || n < 0) {
    free(provider);
    free(payload);
    return;
  }
  c.n = (uint32_t)n;
  c.e = calloc(c.n ? c.n : 1, sizeof *c.e);
  if (!c.e) abort();
  c.router = ah_router_new();
  CHECK(c.router != NULL, "%s: ah_router_new", name);
  for (uint32_t j = 0; j < c.n; j++) {
    dentry *e = &c.e[j];
    char *role = entry_file(dir, j, "role", NULL);
    e->id = entry_file(dir, j, "id", NULL);
    e->on = entry_file(dir, j, "on", NULL);
    e->when = entry_file(dir, j, "when", NULL);
    e->error = entry_file(dir, j, "error", NULL);
    e->decision = entry_file(dir, j, "decision.json", &e->decision_len);
    char *g = entry_file(dir, j, "guard", NULL), *ret = entry_file(dir, j, "return", NULL);
    char *nx = entry_file(dir, j, "next", NULL);
    e->ret_json = entry_file(dir, j, "return.json", &e->ret_len);
    e->guard = g && strcmp(g, "true") == 0;
    e->next = nx ? strtol(nx, NULL, 10) : 0;
    e->ret = e->ret_json ? RET_DECISION : ret && strcmp(ret, "inner") == 0 ? RET_INNER : RET_NULL;
    bool known = role && (strcmp(role, "handler") == 0 || strcmp(role, "observer") == 0 ||
                          strcmp(role, "middleware") == 0);
    CHECK(known && e->id && e->on, "%s: entry %u unreadable (role %s)", name, j, role ? role : "?");
    e->role = !known || role[0] == 'h' ? ROLE_HANDLER : role[0] == 'o' ? ROLE_OBSERVER : ROLE_MIDDLEWARE;
    uint32_t got = UINT32_MAX;
    ah_error *err = NULL;
    ah_status st = ah_router_add(c.router, e->role, (const uint8_t *)e->on, e->on ? strlen(e->on) : 0,
                                 (const uint8_t *)e->when, e->when ? strlen(e->when) : 0, &got, &err);
    CHECK(st == AH_OK && got == j && err == NULL, "%s: add %s (%s on %s when %s): %s %s", name, e->id ? e->id : "?",
          role ? role : "?", e->on ? e->on : "?", e->when ? e->when : "-", id(st),
          err ? ah_error_message(err).ptr : "");
    ah_error_free(err);
    free(role);
    free(g);
    free(ret);
    free(nx);
  }

  ah_event *ev = NULL;
  ah_error *derr = NULL;
  ah_status st = ah_event_decode(S(provider), (const uint8_t *)payload, plen, NULL, &ev, &derr);
  CHECK(st == AH_OK && ev, "%s: decode %s", name, id(st));
  jval *head = NULL;
  if (ev) {
    c.kind = ah_event_kind(ev);
    c.native = ah_event_native_name(ev);
    ah_str h = ah_event_head_json(ev);
    head = json_parse(h.ptr, h.len);
    CHECK(head != NULL, "%s: head JSON", name);
    const jval *tool = head ? json_get(head, "tool") : NULL;
    if (tool && tool->type == J_OBJ) {
      c.tool = json_get(tool, "name");
      c.canonical = json_get(tool, "canonical");
      CHECK(c.tool && c.tool->type == J_STR && c.canonical && c.canonical->type == J_STR, "%s: tool key", name);
    }

    char *handles = read_file(dir, "handles", NULL);
    bool want_handles = handles && strcmp(handles, "true") == 0;
    CHECK(handles && ah_router_handles(c.router, (const uint8_t *)c.kind.ptr, c.kind.len,
                                       (const uint8_t *)c.native.ptr, c.native.len) == want_handles,
          "%s: handles, want %s", name, handles ? handles : "?");
    free(handles);

    ah_error *err = NULL;
    st = ah_dispatch_new(c.router, (const uint8_t *)c.kind.ptr, c.kind.len, (const uint8_t *)c.native.ptr,
                         c.native.len, opt_ptr(c.tool), opt_len(c.tool), opt_ptr(c.canonical), opt_len(c.canonical),
                         &c.d, &err);
    CHECK(st == AH_OK && c.d && !err, "%s: ah_dispatch_new %s", name, id(st));
    ah_error_free(err);
    err = NULL;
    /* A failing observer is a warning on stderr: capture fd 2 around the walk. */
    FILE *cap = tmpfile();
    int saved = -1;
    fflush(stderr);
    if (cap) {
      saved = dup(2);
      dup2(fileno(cap), 2);
    }
    ah_buf *out = NULL;
    st = c.d ? dispatch_drive(&c, &out, &err) : AH_ERR_NULL_ARG;
    size_t elen = 0;
    char *captured = NULL;
    fflush(stderr);
    if (cap) {
      dup2(saved, 2);
      close(saved);
      captured = slurp(cap, &elen);
      fclose(cap);
    }
    CHECK(captured != NULL, "%s: stderr capture", name);

    char *want = read_file(dir, "expect.decision.json", NULL);
    char *want_error = read_file(dir, "expect_error", NULL);
    if (want) {
      CHECK(st == AH_OK && out && decision_equal(ah_buf_str(out), want), "%s: decision %s (%s: %s), want %s", name,
            out ? ah_buf_str(out).ptr : "-", id(st), err ? ah_error_message(err).ptr : "", want);
    } else {
      CHECK(want_error && st != AH_OK && !out && err && ah_error_code(err) == st &&
                strcmp(ah_status_id(st), want_error) == 0,
            "%s: error %s (decision %s), want %s", name, id(st), out ? ah_buf_str(out).ptr : "-",
            want_error ? want_error : "?");
    }
    /* After the answer the dispatch is spent: stepping returns 4. */
    CHECK(!c.d || ah_dispatch_step(c.d, NULL, NULL) == 4, "%s: step after the answer", name);

    char *want_calls = read_file(dir, "calls", NULL);
    CHECK(want_calls && strcmp(c.calls, want_calls) == 0, "%s: calls\n%s want\n%s", name, c.calls,
          want_calls ? want_calls : "?");
    free(want_calls);

    /* Each failing observer that ran left its warning; nothing else did. */
    int failing = 0;
    for (uint32_t j = 0; j < c.n; j++) {
      const dentry *e = &c.e[j];
      if (e->role != ROLE_OBSERVER || !e->error) continue;
      failing++;
      char line[512];
      snprintf(line, sizeof line, "agenthooks: warning: an on_any observer failed (ignored): %s\n", e->error);
      CHECK(captured && contains(captured, elen, line, strlen(line)), "%s: stderr lacks %s", name, line);
    }
    if (!failing)
      CHECK(captured && !strstr(captured, "observer failed"), "%s: warning without a failing observer",
            name);
    if (captured && elen && failures != failures_before) fprintf(stderr, "  %s: stderr was:\n%s", name, captured);

    free(captured);
    free(want);
    free(want_error);
    ah_buf_free(out);
    ah_error_free(err);
  }
  for (uint32_t j = 0; j < c.n; j++) {
    const dentry *e = &c.e[j];
    free(e->id);
    free(e->on);
    free(e->when);
    free(e->error);
    free(e->decision);
    free(e->ret_json);
  }
  ah_dispatch_free(c.d);
  ah_router_free(c.router);
  json_free(head);
  ah_event_free(ev);
  ah_error_free(derr);
  free(c.e);
  free(provider);
  free(payload);
}

/* Runs every dispatch vector. `src` is the unflattened fixtures folder:
 * the number of vectors is counted there too, so a broken path (or a
 * flattener that drops a file) cannot pass with fewer. */
static void walk_dispatch(const char *root, const char *src) {
  char dir[2048], sdir[2048];
  snprintf(dir, sizeof dir, "%s/dispatch", root);
  snprintf(sdir, sizeof sdir, "%s/router/dispatch", src);
  long files = 0;
  DIR *dp = opendir(sdir);
  CHECK(dp != NULL, "dispatch: cannot open %s", sdir);
  for (struct dirent *de; dp && (de = readdir(dp)) != NULL;) {
    size_t l = strlen(de->d_name);
    if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0) files++;
  }
  if (dp) closedir(dp);
  long count = read_long(dir, "count", -1);
  const char *filter = getenv("AH_FIXTURE");
  int ran = 0, skipped = 0, total = 0;
  for (long i = 0; i < count; i++) {
    char cd[4096];
    snprintf(cd, sizeof cd, "%s/%ld", dir, i);
    char *name = read_file(cd, "name", NULL);
    CHECK(name != NULL, "dispatch: vector %ld has no name", i);
    if (!name) continue;
    total++;
    if (filter && *filter && !strstr(name, filter)) {
      skipped++; /* filtered out by AH_FIXTURE, never by the runner */
    } else {
      run_dispatch_case(cd, name);
      ran++;
    }
    free(name);
  }
  fprintf(stderr, "dispatch vectors (C ABI): ran %d, skipped %d, total %d, files %ld\n", ran, skipped, total, files);
  CHECK(files > 0 && total == files && count == files, "dispatch: %d vectors flattened of %ld files in %s", total,
        files, sdir);
  CHECK(ran + skipped == total, "dispatch: ran + skipped == total");
  CHECK(ran == total || (filter && *filter), "dispatch: ran %d of %d", ran, total);
}

/* ------------------------------------------------------ runtime vectors */

/* fixtures/runtime/README.md: a hook process's whole run through the ABI,
 * as a C hook program does it (example_hook.c), with the vector guard. */
static void run_runtime_case(const char *dir, const char *name) {
  size_t alen = 0, sin_len = 0, plen = 0;
  char *araw = read_file(dir, "argv", &alen);
  long argc = read_long(dir, "argc", -1);
  char path[4096];
  snprintf(path, sizeof path, "%s/stdin", dir);
  char *policy = read_file(dir, "router.json", &plen);
  const char **argv = calloc((size_t)(argc > 0 ? argc : 1), sizeof *argv);
  if (!araw || !argv || argc <= 0) abort();
  size_t off = 0;
  for (long i = 0; i < argc; i++) {
    argv[i] = araw + off;
    off += strlen(araw + off) + 1;
  }
  (void)sin_len;
  ah_run_args *args = NULL;
  ah_response *resp = NULL;
  CHECK(ah_run_start(argv, (size_t)argc, &args, &resp, NULL) == AH_OK && (args != NULL) != (resp != NULL),
        "%s: ah_run_start", name);
  if (args) {
    CHECK(ah_run_args_reads_stdin(args), "%s: a vector is a `run`", name);
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "%s: open stdin", name);
    ah_buf *in = NULL;
    ah_error *read_err = NULL;
    ah_read_stdin(fd, ah_run_args_max_bytes(args), &in, &read_err);
    close(fd);
    ah_str data = ah_buf_str(in);
    ah_invocation *inv = NULL;
    CHECK(ah_invocation_prepare(args, (const uint8_t *)policy, policy ? plen : 0, (const uint8_t *)data.ptr, data.len,
                                read_err, &inv, &resp, NULL) == AH_OK,
          "%s: prepare", name);
    if (inv) {
      /* The vector guard: deny tool.pre whose command contains rm -rf,
         ask when it contains needs-approval. */
      ah_str view = ah_invocation_event_view(inv);
      jval *ev = json_parse(view.ptr, view.len);
      CHECK(ev != NULL, "%s: event view is JSON", name);
      const jval *tool = ev ? json_get(ev, "tool") : NULL;
      const jval *cmd = tool ? json_get(tool, "command") : NULL;
      bool deny = ev && json_str_is(json_get(ev, "kind"), "tool.pre") && cmd && cmd->type == J_STR &&
                  contains(cmd->s, cmd->slen, "rm -rf", 6);
      bool ask = !deny && ev && json_str_is(json_get(ev, "kind"), "tool.pre") && cmd && cmd->type == J_STR &&
                 contains(cmd->s, cmd->slen, "needs-approval", 14);
      const char *d = deny  ? "{\"kind\":\"deny\",\"reason\":\"vector guard: rm -rf is not allowed\"}"
                      : ask ? "{\"kind\":\"ask\",\"reason\":\"vector guard: needs approval\"}"
                            : "{\"kind\":\"no_decision\"}";
      CHECK(ah_invocation_complete(inv, (const uint8_t *)d, strlen(d), &resp, NULL) == AH_OK, "%s: complete", name);
      json_free(ev);
      ah_invocation_free(inv);
    }
    ah_error_free(read_err);
    ah_buf_free(in);
    ah_run_args_free(args);
  }
  if (resp) {
    ah_str out = ah_response_stdout(resp), err = ah_response_stderr(resp);
    long want_exit = read_long(dir, "exit", -1);
    CHECK(ah_response_exit_code(resp) == want_exit, "%s: exit %d, want %ld (stderr %.*s)", name,
          ah_response_exit_code(resp), want_exit, (int)err.len, err.ptr);
    size_t wlen = 0;
    char *want = read_file(dir, "stdout", &wlen);
    if (want) {
      CHECK(out.len == wlen && memcmp(out.ptr, want, wlen) == 0, "%s: stdout %.*s", name, (int)out.len, out.ptr);
    } else {
      want = read_file(dir, "stdout.json", &wlen);
      jval *a = json_parse(out.ptr, out.len), *b = want ? json_parse(want, wlen) : NULL;
      CHECK(a && b && json_equal(a, b), "%s: stdout JSON %.*s", name, (int)out.len, out.ptr);
      json_free(a);
      json_free(b);
    }
    free(want);
    size_t clen = 0;
    char *cs = read_file(dir, "stderr_contains", &clen);
    for (size_t k = 0; cs && k < clen; k += strlen(cs + k) + 1)
      CHECK(contains(err.ptr, err.len, cs + k, strlen(cs + k)), "%s: stderr lacks %s: %.*s", name, cs + k,
            (int)err.len, err.ptr);
    free(cs);
    ah_response_free(resp);
  }
  free(policy);
  free(argv);
  free(araw);
}

/* Runs one family; returns how many cases matched the filter. */
static int walk(const char *root, const char *family, void (*run)(const char *, const char *)) {
  char dir[2048];
  snprintf(dir, sizeof dir, "%s/%s", root, family);
  long count = read_long(dir, "count", -1);
  CHECK(count > 0, "%s: no fixtures in %s", family, dir);
  const char *filter = getenv("AH_FIXTURE");
  int total = 0, ran = 0, skipped = 0;
  for (long i = 0; i < count; i++) {
    char cd[4096];
    snprintf(cd, sizeof cd, "%s/%ld", dir, i);
    char *name = read_file(cd, "name", NULL);
    if (!name) continue;
    if (filter && *filter && !strstr(name, filter)) {
      free(name);
      continue;
    }
    total++;
    char *skip = read_file(cd, "skip", NULL);
    if (skip) {
      skipped++;
      free(skip);
    } else {
      run(cd, name);
      ran++;
    }
    free(name);
  }
  fprintf(stderr, "%s fixtures (C ABI): ran %d, skipped %d, total %d\n", family, ran, skipped, total);
  CHECK(ran + skipped == total, "%s: ran + skipped == total", family);
  CHECK(total > 0 || (filter && *filter), "%s: no fixtures", family);
  return total;
}

/* -------------------------------------------------- every function, paths */

static const char *PRE = "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                         "\"tool_input\":{\"command\":\"rm -rf /\"},\"tool_use_id\":\"t1\"}";
static const char *BAD_UTF8 = "\xff\xfe";

static void test_versions(void) {
  CHECK(ah_abi_version() == AH_ABI_VERSION, "abi version");
  CHECK(strcmp(ah_version(), AH_VERSION) == 0, "ah_version %s vs %s", ah_version(), AH_VERSION);
  int major = -1, minor = -1, patch = -1;
  CHECK(sscanf(ah_version(), "%d.%d.%d", &major, &minor, &patch) == 3, "version parses");
  CHECK(major == AH_VERSION_MAJOR && minor == AH_VERSION_MINOR && patch == AH_VERSION_PATCH, "version macros");
  CHECK(AH_VERSION_NUMBER == major * 10000 + minor * 100 + patch, "AH_VERSION_NUMBER");
}

static void test_errors(void) {
  CHECK(strcmp(ah_status_id(AH_OK), "ok") == 0, "ok id");
  CHECK(strcmp(ah_status_id(AH_ERR_NULL_ARG), "null_arg") == 0, "null_arg id");
  CHECK(strcmp(ah_status_id(AH_ERR_INVALID_JSON), "invalid_json") == 0, "invalid_json id");
  CHECK(strcmp(ah_status_id(AH_ERR_INVALID_ARGUMENT), "invalid_argument") == 0, "invalid_argument id");
  CHECK(strcmp(ah_status_id(102), "unknown") == 0 && strcmp(ah_status_id(123456), "unknown") == 0, "unknown ids");
  /* Every numbered status has a distinct id. */
  const char *seen[256];
  int nseen = 0;
  for (uint32_t s = 0; s < 256; s++) {
    const char *i = ah_status_id(s);
    if (strcmp(i, "unknown") == 0) continue;
    for (int k = 0; k < nseen; k++) CHECK(strcmp(seen[k], i) != 0, "duplicate id %s", i);
    seen[nseen++] = i;
  }
  CHECK(nseen == 20, "20 named statuses besides unknown, got %d", nseen);

  ah_error *e = NULL, *err = NULL;
  CHECK(ah_error_new(AH_ERR_HANDLER_ERROR, S("db down"), &e, &err) == AH_OK && e && !err, "error_new");
  CHECK(ah_error_code(e) == AH_ERR_HANDLER_ERROR, "error code");
  CHECK(contains(ah_error_message(e).ptr, ah_error_message(e).len, "db down", 7), "error message");
  ah_error_free(e);
  e = NULL;
  CHECK(ah_error_new(AH_ERR_PANIC, NULL, 0, &e, NULL) == AH_OK && ah_error_code(e) == AH_ERR_PANIC, "panic error");
  ah_error_free(e);
  uint32_t bad_codes[] = {AH_OK, AH_ERR_NULL_ARG, AH_ERR_ALREADY_USED, 99, 102, 9999};
  for (size_t i = 0; i < sizeof bad_codes / sizeof *bad_codes; i++) {
    e = NULL;
    CHECK(ah_error_new(bad_codes[i], S("x"), &e, &err) == AH_ERR_INVALID_ARGUMENT && e == NULL && err,
          "error_new(%u) refused", bad_codes[i]);
    CHECK(ah_error_code(err) == AH_ERR_INVALID_ARGUMENT, "error_new err code");
    ah_error_free(err);
    err = NULL;
  }
  CHECK(ah_error_new(AH_ERR_IO, S("x"), NULL, &err) == AH_ERR_NULL_ARG && ah_error_code(err) == AH_ERR_NULL_ARG,
        "error_new NULL out");
  ah_error_free(err);
  err = NULL;
  CHECK(ah_error_new(AH_ERR_IO, S(BAD_UTF8), &e, &err) == AH_ERR_INVALID_UTF8, "error_new bad utf8");
  ah_error_free(err);
  CHECK(ah_error_new(AH_ERR_IO, NULL, 3, &e, NULL) == AH_ERR_NULL_ARG, "error_new NULL with length");
  /* NULL handles: sentinels and no-ops. */
  CHECK(ah_error_code(NULL) == AH_OK, "error_code(NULL)");
  CHECK(ah_error_message(NULL).ptr == NULL && ah_error_message(NULL).len == 0, "error_message(NULL)");
  ah_error_free(NULL);
  ah_error_free(NULL);
}

static void test_decode(void) {
  ah_event *ev = NULL;
  ah_error *err = NULL;
  CHECK(ah_event_decode(S("claude"), S(PRE), NULL, &ev, &err) == AH_OK && ev && !err, "decode alias");
  CHECK(str_eq(ah_event_provider(ev), "claude-code"), "provider id");
  CHECK(str_eq(ah_event_kind(ev), "tool.pre"), "kind");
  CHECK(str_eq(ah_event_native_name(ev), "PreToolUse"), "native name");
  CHECK(str_eq(ah_event_raw(ev), PRE), "raw");
  {
    /* The session mode: live (whatever this process observes), cached. */
    ah_str m1 = ah_event_session_mode_json(ev), m2 = ah_event_session_mode_json(ev);
    CHECK(m1.ptr && m1.ptr == m2.ptr && m1.ptr[m1.len] == '\0', "session mode cached and NUL-terminated");
    jval *mj = json_parse(m1.ptr, m1.len);
    const jval *mi = mj ? json_get(mj, "interactive") : NULL, *ms = mj ? json_get(mj, "signal") : NULL;
    CHECK(mi && ms && (mi->type == J_BOOL || mi->type == J_NULL) && (ms->type == J_STR || ms->type == J_NULL) &&
              (mi->type == J_NULL) == (ms->type == J_NULL),
          "session mode json shape");
    json_free(mj);
    CHECK(ah_event_session_mode_json(NULL).ptr == NULL && ah_event_session_mode_json(NULL).len == 0,
          "session mode: NULL event");
  }
  ah_str j1 = ah_event_json(ev), j2 = ah_event_json(ev);
  CHECK(j1.ptr == j2.ptr && j1.len == j2.len && j1.ptr[j1.len] == '\0', "json cached and NUL-terminated");
  /* Failures: status, *err set, *out untouched. */
  ah_event *untouched = (ah_event *)&err; /* a sentinel address */
  ah_event *out = untouched;
  struct {
    const uint8_t *p;
    size_t pl;
    const uint8_t *b;
    size_t bl;
    ah_status want;
  } cases[] = {
      {NULL, 0, S(PRE), AH_ERR_NULL_ARG},
      {S(BAD_UTF8), S(PRE), AH_ERR_INVALID_UTF8},
      {S("vim"), S(PRE), AH_ERR_UNKNOWN_PROVIDER},
      {S("codex"), S("{not json"), AH_ERR_INVALID_JSON},
      {S("codex"), S("[1,2]"), AH_ERR_NOT_AN_OBJECT},
      {S("codex"), S("{\"session_id\":\"s\"}"), AH_ERR_MISSING_EVENT},
      {S("codex"), S("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"\xff\"}"), AH_ERR_INVALID_UTF8},
      {S("codex"), NULL, 0, AH_ERR_INVALID_JSON},
      {S("codex"), NULL, 5, AH_ERR_NULL_ARG},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ah_error *e = NULL;
    ah_status st = ah_event_decode(cases[i].p, cases[i].pl, cases[i].b, cases[i].bl, NULL, &out, &e);
    CHECK(st == cases[i].want, "decode case %zu: %s, want %s", i, id(st), id(cases[i].want));
    CHECK(out == untouched, "decode case %zu: out touched", i);
    CHECK(e && ah_error_code(e) == st && ah_error_message(e).len > 0, "decode case %zu: error", i);
    ah_error_free(e);
    /* The same failure with err == NULL only returns the status. */
    CHECK(ah_event_decode(cases[i].p, cases[i].pl, cases[i].b, cases[i].bl, NULL, &out, NULL) == cases[i].want,
          "decode case %zu without err", i);
  }
  CHECK(ah_event_decode(S("codex"), S(PRE), NULL, NULL, NULL) == AH_ERR_NULL_ARG, "decode NULL out");

  /* Options. */
  ah_decode_options *o = ah_decode_options_new();
  CHECK(o != NULL, "options");
  CHECK(ah_decode_options_set_variant(o, S("ide"), NULL) == AH_OK, "variant");
  CHECK(ah_decode_options_set_event(o, S("PreToolUse"), NULL) == AH_OK, "event");
  CHECK(ah_decode_options_set_detection(o, S("shape"), NULL) == AH_OK, "detection");
  ah_error *e = NULL;
  CHECK(ah_decode_options_set_detection(o, S("guess"), &e) == AH_ERR_INVALID_ARGUMENT && e, "detection bad");
  ah_error_free(e);
  CHECK(ah_decode_options_set_detection(o, NULL, 0, NULL) == AH_ERR_NULL_ARG, "detection NULL");
  CHECK(ah_decode_options_set_variant(o, S(BAD_UTF8), NULL) == AH_ERR_INVALID_UTF8, "variant utf8");
  CHECK(ah_decode_options_set_event(o, S(BAD_UTF8), NULL) == AH_ERR_INVALID_UTF8, "event utf8");
  CHECK(ah_decode_options_set_variant(NULL, S("x"), NULL) == AH_ERR_NULL_ARG, "variant NULL opts");
  CHECK(ah_decode_options_set_event(NULL, S("x"), NULL) == AH_ERR_NULL_ARG, "event NULL opts");
  CHECK(ah_decode_options_set_detection(NULL, S("env"), NULL) == AH_ERR_NULL_ARG, "detection NULL opts");
  CHECK(ah_decode_options_set_max_bytes(NULL, 1, NULL) == AH_ERR_NULL_ARG, "max_bytes NULL opts");
  ah_event *ev2 = NULL;
  const char *no_name = "{\"session_id\":\"s\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}";
  CHECK(ah_event_decode(S("codex"), S(no_name), o, &ev2, NULL) == AH_OK, "decode with --event");
  ah_str js = ah_event_json(ev2);
  jval *j = json_parse(js.ptr, js.len);
  CHECK(json_str_is(json_get(j, "variant"), "ide") && json_str_is(json_get(j, "detection"), "shape"),
        "options applied: %.*s", (int)js.len, js.ptr);
  json_free(j);
  ah_event_free(ev2);
  CHECK(ah_decode_options_set_variant(o, NULL, 0, NULL) == AH_OK, "variant cleared");
  CHECK(ah_decode_options_set_max_bytes(o, 10, NULL) == AH_OK, "max_bytes");
  ev2 = NULL;
  CHECK(ah_event_decode(S("codex"), S(PRE), o, &ev2, NULL) == AH_ERR_TOO_LARGE && !ev2, "too large");
  CHECK(ah_decode_options_set_max_bytes(o, 0, NULL) == AH_OK, "max_bytes default");
  CHECK(ah_event_decode(S("codex"), S(PRE), o, &ev2, NULL) == AH_OK, "default limit");
  ah_event_free(ev2);
  ah_decode_options_free(o);
  ah_decode_options_free(NULL);

  /* NULL event: sentinels. */
  CHECK(ah_event_json(NULL).ptr == NULL && ah_event_raw(NULL).ptr == NULL && ah_event_head_json(NULL).ptr == NULL &&
            ah_event_output_json(NULL).ptr == NULL,
        "event NULL views");
  CHECK(ah_event_provider(NULL).ptr == NULL && ah_event_kind(NULL).ptr == NULL && ah_event_native_name(NULL).ptr == NULL,
        "event NULL names");
  ah_event_free(NULL);
  ah_event_free(ev);
}

typedef struct {
  const ah_event *ev;
  const char *json;
  bool ok;
} thread_arg;

static void *read_event(void *p) {
  thread_arg *a = p;
  for (int i = 0; i < 50; i++) {
    ah_str s = ah_event_json(a->ev);
    if (i == 0) a->json = s.ptr;
    if (s.ptr != a->json || s.len == 0) a->ok = false;
    ah_response *r = NULL;
    if (ah_event_respond(a->ev, S("{\"kind\":\"deny\",\"reason\":\"no\"}"), NULL, 0, &r, NULL) != AH_OK) a->ok = false;
    ah_response_free(r);
  }
  return NULL;
}

/* `const ah_event *` calls run concurrently (first-use JSON caching included). */
static void test_threads(void) {
  ah_event *ev = NULL;
  CHECK(ah_event_decode(S("codex"), S(PRE), NULL, &ev, NULL) == AH_OK, "decode for threads");
  pthread_t t[4];
  thread_arg a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = (thread_arg){ev, NULL, true};
    pthread_create(&t[i], NULL, read_event, &a[i]);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    CHECK(a[i].ok && a[i].json == a[0].json, "thread %d", i);
  }
  ah_event_free(ev);
}

static void test_respond(void) {
  ah_event *ev = NULL;
  CHECK(ah_event_decode(S("codex"), S(PRE), NULL, &ev, NULL) == AH_OK, "decode");
  ah_response *r = NULL;
  CHECK(ah_event_respond(ev, S("{\"kind\":\"ask\",\"reason\":\"sure?\"}"), NULL, 0, &r, NULL) == AH_OK, "respond");
  CHECK(contains(ah_response_stdout(r).ptr, ah_response_stdout(r).len, "deny", 4), "ask degrades to deny on codex");
  CHECK(contains(ah_response_notes_json(r).ptr, ah_response_notes_json(r).len, "degraded", 8), "degraded note");
  CHECK(ah_response_exit_code(r) == 0, "exit 0");
  ah_str rj = ah_response_json(r);
  CHECK(rj.ptr && rj.ptr == ah_response_json(r).ptr, "response json cached");
  ah_response_free(r);
  r = NULL;
  CHECK(ah_event_respond(ev, NULL, 0, NULL, 0, &r, NULL) == AH_OK && ah_response_stdout(r).len == 0,
        "NULL decision is no_decision");
  ah_response_free(r);
  ah_response *untouched = (ah_response *)&r, *out = untouched;
  struct {
    const char *d;
    const char *p;
    ah_status want;
  } cases[] = {
      {"{\"kind\":\"maybe\"}", NULL, AH_ERR_INVALID_DECISION},
      {"{\"kind\":\"deny\",\"why\":\"x\"}", NULL, AH_ERR_INVALID_DECISION},
      {"not json", NULL, AH_ERR_INVALID_DECISION},
      {"{\"kind\":\"finish\"}", NULL, AH_ERR_INVALID_DECISION},
      {BAD_UTF8, NULL, AH_ERR_INVALID_UTF8},
      {"{\"kind\":\"deny\",\"reason\":\"x\"}", "{\"fial\":\"closed\"}", AH_ERR_INVALID_ARGUMENT},
      {"{\"kind\":\"deny\",\"reason\":\"x\"}", BAD_UTF8, AH_ERR_INVALID_UTF8},
      {"{\"kind\":\"ask\",\"reason\":\"x\"}", "{\"unsupported\":\"strict\"}", AH_ERR_UNSUPPORTED_DECISION},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ah_error *e = NULL;
    const char *p = cases[i].p;
    ah_status st = ah_event_respond(ev, S(cases[i].d), (const uint8_t *)p, p ? strlen(p) : 0, &out, &e);
    CHECK(st == cases[i].want && out == untouched && e && ah_error_code(e) == st, "respond case %zu: %s", i, id(st));
    if (st == AH_ERR_UNSUPPORTED_DECISION) {
      /* The fail policy's answer to that error, under fail: closed. */
      ah_response *fr = NULL;
      CHECK(ah_event_fail_response(ev, e, S("{\"fail\":\"closed\"}"), &fr, NULL) == AH_OK, "fail response");
      CHECK(contains(ah_response_stdout(fr).ptr, ah_response_stdout(fr).len, "deny", 4), "fail closed denies");
      ah_response_free(fr);
    }
    ah_error_free(e);
  }
  CHECK(ah_event_respond(NULL, NULL, 0, NULL, 0, &out, NULL) == AH_ERR_NULL_ARG, "respond NULL event");
  CHECK(ah_event_respond(ev, NULL, 0, NULL, 0, NULL, NULL) == AH_ERR_NULL_ARG, "respond NULL out");
  CHECK(ah_event_respond(ev, NULL, 4, NULL, 0, &out, NULL) == AH_ERR_NULL_ARG, "respond NULL decision with len");

  /* Fail responses. */
  ah_error *he = NULL;
  CHECK(ah_error_new(AH_ERR_HANDLER_ERROR, S("boom"), &he, NULL) == AH_OK, "handler error");
  ah_response *fr = NULL;
  CHECK(ah_event_fail_response(ev, he, NULL, 0, &fr, NULL) == AH_OK, "fail open");
  CHECK(ah_response_stdout(fr).len == 0 &&
            contains(ah_response_stderr(fr).ptr, ah_response_stderr(fr).len, "handler_error", 13),
        "fail open: no opinion, diagnostic");
  ah_response_free(fr);
  CHECK(ah_event_fail_response(NULL, he, NULL, 0, &fr, NULL) == AH_ERR_NULL_ARG, "fail NULL event");
  CHECK(ah_event_fail_response(ev, NULL, NULL, 0, &fr, NULL) == AH_ERR_NULL_ARG, "fail NULL error");
  CHECK(ah_event_fail_response(ev, he, S("{\"fail\":\"sideways\"}"), &fr, NULL) == AH_ERR_INVALID_ARGUMENT, "fail bad policy");
  CHECK(ah_event_fail_response(ev, he, NULL, 0, NULL, NULL) == AH_ERR_NULL_ARG, "fail NULL out");
  fr = NULL;
  CHECK(ah_fail_response_for_payload(S("claude-code"), S("{oops"), he, S("{\"fail\":\"closed\"}"), &fr, NULL) == AH_OK &&
            ah_response_exit_code(fr) == 2,
        "undecodable, fail closed: exit 2");
  ah_response_free(fr);
  CHECK(ah_fail_response_for_payload(S("vim"), S("{}"), he, NULL, 0, &fr, NULL) == AH_ERR_UNKNOWN_PROVIDER,
        "for_payload unknown provider");
  CHECK(ah_fail_response_for_payload(S("codex"), S("{}"), NULL, NULL, 0, &fr, NULL) == AH_ERR_NULL_ARG,
        "for_payload NULL error");
  CHECK(ah_fail_response_for_payload(NULL, 0, S("{}"), he, NULL, 0, &fr, NULL) == AH_ERR_NULL_ARG,
        "for_payload NULL provider");
  CHECK(ah_fail_response_for_payload(S("codex"), S("{}"), he, NULL, 0, NULL, NULL) == AH_ERR_NULL_ARG,
        "for_payload NULL out");
  ah_error_free(he);

  CHECK(ah_response_stdout(NULL).ptr == NULL && ah_response_stderr(NULL).ptr == NULL, "response NULL views");
  CHECK(ah_response_exit_code(NULL) == -1, "response NULL exit");
  CHECK(ah_response_notes_json(NULL).ptr == NULL && ah_response_json(NULL).ptr == NULL, "response NULL json");
  ah_response_free(NULL);
  ah_event_free(ev);
}

/* The router's dispatch as data (ah_router / ah_dispatch): a failing
 * observer never gates, middleware wraps the chain, native-name handlers
 * run before kind handlers, next twice fails the dispatch. */
static void test_dispatch(void) {
  ah_router *r = ah_router_new();
  uint32_t id = 99;
  ah_error *e = NULL;
  CHECK(ah_router_add(r, 0, S("kind:tool.pre"), NULL, 0, &id, NULL) == AH_OK && id == 0, "add kind handler");
  CHECK(ah_router_add(r, 0, S("native:PreToolUse"), S("names:Bash"), &id, NULL) == AH_OK && id == 1, "add native");
  CHECK(ah_router_add(r, 1, S("*"), NULL, 0, &id, NULL) == AH_OK && id == 2, "add observer");
  CHECK(ah_router_add(r, 2, S("*"), NULL, 0, &id, NULL) == AH_OK && id == 3, "add middleware");
  CHECK(ah_router_add(r, 0, S("*"), NULL, 0, &id, &e) == AH_ERR_INVALID_ARGUMENT && e && id == 3, "handler on *");
  ah_error_free(e);
  CHECK(ah_router_add(r, 7, S("*"), NULL, 0, &id, NULL) == AH_ERR_INVALID_ARGUMENT, "bad role");
  CHECK(ah_router_handles(r, S("PreToolUse"), S("PreToolUse")), "handles");
  CHECK(!ah_router_handles(r, S("agent.stop"), S("Stop")), "does not handle");
  CHECK(!ah_router_handles(NULL, S("tool.pre"), S("x")), "NULL router");
  for (int twice = 0; twice < 2; twice++) {
    ah_dispatch *d = NULL;
    CHECK(ah_dispatch_new(r, S("tool.pre"), S("PreToolUse"), S("Bash"), S("shell"), &d, NULL) == AH_OK && d, "new");
    uint32_t i = 0, level = 9;
    CHECK(ah_dispatch_step(d, &i, &level) == 0 && i == 2, "observer first");
    CHECK(ah_dispatch_give_error(d, NULL, 0, S("observer boom"), NULL) == AH_OK, "observer fails");
    CHECK(ah_dispatch_step(d, &i, &level) == 1 && i == 3 && level == 0, "then middleware");
    CHECK(ah_dispatch_enter(d, r, 0, S("tool.pre"), S("PreToolUse"), S("Bash"), S("shell"), NULL) == AH_OK, "next");
    CHECK(ah_dispatch_step(d, &i, NULL) == 3 && i == 1, "native handler before kind handler");
    CHECK(ah_dispatch_give(d, S("{\"kind\":\"no_decision\",\"context\":[\"n\"]}"), NULL) == AH_OK, "give");
    CHECK(ah_dispatch_step(d, &i, NULL) == 3 && i == 0, "kind handler");
    CHECK(ah_dispatch_give(d, S("{\"kind\":\"deny\",\"reason\":\"x\"}"), NULL) == AH_OK, "give deny");
    CHECK(ah_dispatch_step(d, NULL, NULL) == 4, "inner level done");
    ah_buf *b = NULL;
    CHECK(ah_dispatch_result(d, &b, NULL) == AH_OK, "next's answer");
    CHECK(decision_equal(ah_buf_str(b), "{\"kind\":\"deny\",\"reason\":\"x\",\"context\":[\"n\"]}"), "folded");
    ah_buf_free(b);
    b = NULL;
    if (twice) {
      e = NULL;
      CHECK(ah_dispatch_enter(d, r, 0, S("tool.pre"), S("PreToolUse"), S("Bash"), S("shell"), &e) ==
                AH_ERR_HANDLER_ERROR && e,
            "next twice is an error");
      ah_error_free(e);
    }
    CHECK(ah_dispatch_give(d, S("{\"kind\":\"allow\"}"), NULL) == AH_OK, "middleware replaces");
    CHECK(ah_dispatch_step(d, NULL, NULL) == 4, "done");
    e = NULL;
    if (twice) {
      CHECK(ah_dispatch_result(d, &b, &e) == AH_ERR_HANDLER_ERROR && b == NULL && e, "next twice fails the dispatch");
      ah_error_free(e);
    } else {
      CHECK(ah_dispatch_result(d, &b, NULL) == AH_OK, "result");
      CHECK(decision_equal(ah_buf_str(b), "{\"kind\":\"allow\"}"), "observer failure does not gate");
      ah_buf_free(b);
    }
    ah_dispatch_free(d);
  }
  CHECK(ah_dispatch_step(NULL, NULL, NULL) == 4, "NULL dispatch");
  ah_dispatch_free(NULL);
  ah_router_free(NULL);
  ah_router_free(r);
}

static void test_merge(void) {
  ah_fold *f = ah_fold_new();
  bool done = true;
  CHECK(ah_fold_push(f, S("{\"kind\":\"no_decision\",\"context\":\"a\"}"), &done, NULL) == AH_OK && !done, "push neutral");
  CHECK(!ah_fold_is_done(f), "not done");
  ah_error *e = NULL;
  CHECK(ah_fold_push(f, S("{\"kind\":\"nope\"}"), &done, &e) == AH_ERR_INVALID_DECISION && e, "push bad");
  ah_error_free(e);
  CHECK(ah_fold_push(f, S(BAD_UTF8), &done, NULL) == AH_ERR_INVALID_UTF8, "push bad utf8");
  CHECK(ah_fold_push(f, S("{\"kind\":\"deny\",\"reason\":\"x\"}"), NULL, NULL) == AH_OK, "push NULL done");
  CHECK(ah_fold_is_done(f), "done");
  CHECK(ah_fold_push(f, S("{\"kind\":\"allow\"}"), &done, NULL) == AH_OK && done, "push after done ignored");
  ah_buf *b = NULL;
  CHECK(ah_fold_finish(f, &b, NULL) == AH_OK, "finish");
  CHECK(decision_equal(ah_buf_str(b), "{\"kind\":\"deny\",\"reason\":\"x\",\"context\":[\"a\"]}"), "winner keeps context");
  ah_buf_free(b);
  b = NULL;
  e = NULL;
  CHECK(ah_fold_finish(f, &b, &e) == AH_ERR_ALREADY_USED && b == NULL && ah_error_code(e) == AH_ERR_ALREADY_USED,
        "finish twice");
  ah_error_free(e);
  CHECK(ah_fold_push(f, NULL, 0, &done, NULL) == AH_ERR_ALREADY_USED, "push after finish");
  CHECK(!ah_fold_is_done(f), "finished fold is not done");
  ah_fold_free(f);
  CHECK(ah_fold_push(NULL, NULL, 0, &done, NULL) == AH_ERR_NULL_ARG, "push NULL fold");
  CHECK(ah_fold_finish(NULL, &b, NULL) == AH_ERR_NULL_ARG, "finish NULL fold");
  f = ah_fold_new();
  CHECK(ah_fold_finish(f, NULL, NULL) == AH_ERR_NULL_ARG, "finish NULL out");
  CHECK(ah_fold_finish(f, &b, NULL) == AH_OK && decision_equal(ah_buf_str(b), "{\"kind\":\"no_decision\"}"),
        "empty fold");
  ah_buf_free(b);
  ah_fold_free(f);
  CHECK(!ah_fold_is_done(NULL), "is_done NULL");
  ah_fold_free(NULL);

  b = NULL;
  CHECK(ah_merge_all(S("[{\"kind\":\"allow\"},{\"kind\":\"deny\",\"reason\":\"d\"}]"), &b, NULL) == AH_OK &&
            decision_equal(ah_buf_str(b), "{\"kind\":\"deny\",\"reason\":\"d\"}"),
        "merge_all");
  ah_buf_free(b);
  b = NULL;
  CHECK(ah_merge_first(S("[{\"kind\":\"allow\"},{\"kind\":\"deny\",\"reason\":\"d\"}]"), &b, NULL) == AH_OK &&
            decision_equal(ah_buf_str(b), "{\"kind\":\"allow\"}"),
        "merge_first");
  ah_buf_free(b);
  b = NULL;
  CHECK(ah_merge_all(S("[]"), &b, NULL) == AH_OK && decision_equal(ah_buf_str(b), "{\"kind\":\"no_decision\"}"),
        "merge_all empty");
  ah_buf_free(b);
  const char *bad[] = {"{\"kind\":\"allow\"}", "[{\"kind\":\"x\"}]", "[1]", "nope"};
  for (size_t i = 0; i < 4; i++) {
    CHECK(ah_merge_all(S(bad[i]), &b, NULL) == AH_ERR_INVALID_DECISION, "merge_all bad %zu", i);
    CHECK(ah_merge_first(S(bad[i]), &b, NULL) == AH_ERR_INVALID_DECISION, "merge_first bad %zu", i);
  }
  CHECK(ah_merge_all(NULL, 0, &b, NULL) == AH_ERR_NULL_ARG && ah_merge_first(NULL, 0, &b, NULL) == AH_ERR_NULL_ARG,
        "merge NULL");
  CHECK(ah_merge_all(S("[]"), NULL, NULL) == AH_ERR_NULL_ARG && ah_merge_first(S("[]"), NULL, NULL) == AH_ERR_NULL_ARG,
        "merge NULL out");
  CHECK(ah_merge_all(S(BAD_UTF8), &b, NULL) == AH_ERR_INVALID_UTF8, "merge bad utf8");

  b = NULL;
  CHECK(ah_decision_normalize(S("{\"kind\":\"Deny\",\"reason\":\"r\",\"context\":\"c\",\"stop_agent\":true}"), &b,
                              NULL) == AH_OK,
        "normalize");
  jval *j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  CHECK(json_str_is(json_get(j, "kind"), "deny") && json_get(j, "context")->type == J_ARR, "normalized form");
  json_free(j);
  ah_buf_free(b);
  CHECK(ah_decision_normalize(S("{\"kind\":\"deny\",\"x\":1}"), &b, NULL) == AH_ERR_INVALID_DECISION, "normalize bad");
  CHECK(ah_decision_normalize(NULL, 0, &b, NULL) == AH_ERR_NULL_ARG, "normalize NULL");
  CHECK(ah_decision_normalize(S("{}"), NULL, NULL) == AH_ERR_NULL_ARG, "normalize NULL out");
  CHECK(ah_buf_str(NULL).ptr == NULL, "buf NULL");
  ah_buf_free(NULL);
}

static void test_info(void) {
  ah_str p = {0};
  CHECK(ah_provider_parse(S("gemini-cli"), &p, NULL) == AH_OK && str_eq(p, "gemini"), "provider alias");
  CHECK(ah_provider_parse(S("COPILOT_CLI"), &p, NULL) == AH_OK && str_eq(p, "copilot"), "provider spelling");
  ah_error *e = NULL;
  CHECK(ah_provider_parse(S("vim"), &p, &e) == AH_ERR_UNKNOWN_PROVIDER && e, "provider unknown");
  ah_error_free(e);
  CHECK(ah_provider_parse(S(BAD_UTF8), &p, NULL) == AH_ERR_INVALID_UTF8, "provider utf8");
  CHECK(ah_provider_parse(NULL, 0, &p, NULL) == AH_ERR_NULL_ARG, "provider NULL");
  CHECK(ah_provider_parse(S("codex"), NULL, NULL) == AH_ERR_NULL_ARG, "provider NULL out");

  const char *providers[] = {"claude-code", "codex", "cursor", "gemini", "kimi-code", "copilot"};
  for (size_t i = 0; i < 6; i++) {
    ah_buf *b = NULL;
    CHECK(ah_capabilities_json(S(providers[i]), &b, NULL) == AH_OK, "capabilities %s", providers[i]);
    jval *j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
    CHECK(j && j->type == J_ARR && j->n > 0 && json_get(j->items[0], "can_block"), "capability rows %s", providers[i]);
    json_free(j);
    ah_buf_free(b);
  }
  ah_buf *b = NULL;
  CHECK(ah_capability_json(S("codex"), S("PreToolUse"), &b, NULL) == AH_OK, "capability");
  jval *j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  CHECK(json_str_is(json_get(j, "kind"), "tool.pre"), "capability kind");
  json_free(j);
  ah_buf_free(b);
  CHECK(ah_capabilities_json(S("vim"), &b, NULL) == AH_ERR_UNKNOWN_PROVIDER, "capabilities unknown");
  CHECK(ah_capabilities_json(NULL, 0, &b, NULL) == AH_ERR_NULL_ARG, "capabilities NULL");
  CHECK(ah_capabilities_json(S("codex"), NULL, NULL) == AH_ERR_NULL_ARG, "capabilities NULL out");
  CHECK(ah_capability_json(S("codex"), NULL, 0, &b, NULL) == AH_ERR_NULL_ARG, "capability NULL name");
  CHECK(ah_capability_json(S("codex"), S(BAD_UTF8), &b, NULL) == AH_ERR_INVALID_UTF8, "capability utf8");
  CHECK(ah_capability_json(S("vim"), S("x"), &b, NULL) == AH_ERR_UNKNOWN_PROVIDER, "capability unknown");

  /* The quirk registry, whole and per provider. */
  b = NULL;
  CHECK(ah_quirks_json(NULL, 0, &b, NULL) == AH_OK, "quirks");
  j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  size_t all_quirks = j ? j->n : 0;
  CHECK(j && j->type == J_ARR && j->n > 0 && json_get(j->items[0], "id") && json_get(j->items[0], "mitigation"),
        "quirk rows");
  json_free(j);
  ah_buf_free(b);
  b = NULL;
  CHECK(ah_quirks_json(S("claude"), &b, NULL) == AH_OK, "quirks of one provider");
  j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  CHECK(j && j->n > 0 && j->n < all_quirks, "a subset");
  for (size_t k = 0; j && k < j->n; k++)
    CHECK(json_str_is(json_get(j->items[k], "provider"), "claude-code"), "quirk %zu provider", k);
  json_free(j);
  ah_buf_free(b);
  CHECK(ah_quirks_json(S("vim"), &b, NULL) == AH_ERR_UNKNOWN_PROVIDER, "quirks unknown provider");
  CHECK(ah_quirks_json(S(BAD_UTF8), &b, NULL) == AH_ERR_INVALID_UTF8, "quirks utf8");
  CHECK(ah_quirks_json(NULL, 3, &b, NULL) == AH_ERR_NULL_ARG, "quirks NULL with length");
  CHECK(ah_quirks_json(NULL, 0, NULL, NULL) == AH_ERR_NULL_ARG, "quirks NULL out");

  /* Detection: flag, environment (given as JSON), payload shape. */
  const char *argv[] = {"guard", "agenthooks", "run"};
  b = NULL;
  CHECK(ah_detect(S("claude"), argv, 3, S("{}"), S(PRE), &b, NULL) == AH_OK, "detect flag");
  j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  CHECK(json_str_is(json_get(j, "provider"), "claude-code") && json_str_is(json_get(j, "detection"), "config"),
        "detect flag result %s", ah_buf_str(b).ptr);
  json_free(j);
  ah_buf_free(b);
  b = NULL;
  const char *cursor = "{\"conversation_id\":\"c\",\"generation_id\":\"g\",\"hook_event_name\":\"beforeShellExecution\","
                       "\"command\":\"ls\",\"cursor_version\":\"1.7.2\"}";
  CHECK(ah_detect(NULL, 0, NULL, 0, S("{}"), S(cursor), &b, NULL) == AH_OK, "detect shape");
  j = json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len);
  CHECK(json_str_is(json_get(j, "provider"), "cursor") && json_str_is(json_get(j, "detection"), "shape"),
        "detect shape result %s", ah_buf_str(b).ptr);
  json_free(j);
  ah_buf_free(b);
  b = NULL;
  CHECK(ah_detect(NULL, 0, NULL, 0, NULL, 0, S(cursor), &b, NULL) == AH_OK, "detect with the process environment");
  ah_buf_free(b);
  e = NULL;
  CHECK(ah_detect(NULL, 0, NULL, 0, S("{}"), S("{}"), &b, &e) == AH_ERR_UNKNOWN_PROVIDER && e, "detect nothing");
  ah_error_free(e);
  CHECK(ah_detect(S("vim"), NULL, 0, S("{}"), S("{}"), &b, NULL) == AH_ERR_UNKNOWN_PROVIDER, "detect bad flag");
  CHECK(ah_detect(NULL, 0, NULL, 0, S("[1]"), S("{}"), &b, NULL) == AH_ERR_INVALID_ARGUMENT, "detect bad env");
  CHECK(ah_detect(NULL, 0, NULL, 2, S("{}"), S("{}"), &b, NULL) == AH_ERR_NULL_ARG, "detect NULL argv");
  CHECK(ah_detect(S(BAD_UTF8), NULL, 0, S("{}"), S("{}"), &b, NULL) == AH_ERR_INVALID_UTF8, "detect flag utf8");
  CHECK(ah_detect(NULL, 0, NULL, 0, S("{}"), S("{}"), NULL, NULL) == AH_ERR_NULL_ARG, "detect NULL out");
}

static void test_runtime(void) {
  /* argv: ah_run_start (the core's launch). */
  const char *plain[] = {"guard", "--help"};
  ah_run_args *a = (ah_run_args *)plain;
  ah_response *ans = NULL;
  CHECK(ah_run_start(plain, 2, &a, &ans, NULL) == AH_OK && a == (ah_run_args *)plain && ans &&
            ah_response_exit_code(ans) == 64 && ah_response_stdout(ans).len == 0 &&
            contains(ah_response_stderr(ans).ptr, ah_response_stderr(ans).len, "agenthooks run", 14),
        "no agenthooks word: usage, 64");
  ah_response_free(ans);
  CHECK(ah_run_args_parse(plain, 2, &a, NULL) == AH_OK && a == NULL, "no agenthooks word: NULL");
  const char *argv[] = {"/bin/guard", "agenthooks", "run", "--provider=codex", "--timeout", "10"};
  ans = NULL;
  CHECK(ah_run_start(argv, 6, &a, &ans, NULL) == AH_OK && a && !ans, "start");
  ah_run_args_free(a);
  CHECK(ah_run_args_parse(argv, 6, &a, NULL) == AH_OK && a, "parse");
  jval *j = json_parse(ah_run_args_json(a).ptr, ah_run_args_json(a).len);
  CHECK(json_str_is(json_get(j, "provider"), "codex") && json_get(j, "timeout_s")->type == J_NUM, "args json");
  CHECK(json_get(j, "problem")->type == J_NULL && json_str_is(json_get(j, "warnings"), ""), "args json: clean");
  json_free(j);
  CHECK(ah_run_args_max_bytes(a) == ah_default_max_bytes() && ah_default_max_bytes() > 0, "max bytes");
  CHECK(str_eq(ah_run_args_command(a), "run") && ah_run_args_reads_stdin(a), "command run, reads stdin");
  CHECK(str_eq(ah_run_args_warnings(a), ""), "no warnings");
  CHECK(ah_run_args_set_state_dir(NULL, S("/x"), NULL) == AH_ERR_NULL_ARG, "state dir: NULL args");
  CHECK(ah_run_args_set_state_dir(a, S(BAD_UTF8), NULL) == AH_ERR_INVALID_UTF8, "state dir: utf8");
  CHECK(ah_run_args_set_state_dir(a, NULL, 0, NULL) == AH_OK, "state dir: NULL is the default");
  ah_run_args_free(a);
  {
    /* A state dir of its own per call: Cursor's dedupe marker of one call
       suppresses the same call in that dir only. */
    char d1[] = "/tmp/ah-abi-state-XXXXXX", d2[] = "/tmp/ah-abi-state-XXXXXX";
    CHECK(mkdtemp(d1) && mkdtemp(d2), "mkdtemp");
    const char *cur[] = {"g", "agenthooks", "run", "--provider=cursor"};
    const char *pl = "{\"hook_event_name\":\"preToolUse\",\"conversation_id\":\"c-1\",\"generation_id\":\"g-1\","
                     "\"tool_name\":\"Shell\",\"tool_input\":{\"command\":\"ls\"},\"tool_use_id\":\"t-1\"}";
    const char *dirs[] = {d1, d1, d2};
    const bool dup[] = {false, true, false};
    for (int i = 0; i < 3; i++) {
      ah_run_args *c = NULL;
      ah_invocation *ci = NULL;
      ah_response *cr = NULL;
      CHECK(ah_run_args_parse(cur, 4, &c, NULL) == AH_OK && c, "state dir: parse");
      CHECK(ah_run_args_set_state_dir(c, S(dirs[i]), NULL) == AH_OK, "state dir: set");
      CHECK(ah_invocation_prepare(c, NULL, 0, S(pl), NULL, &ci, &cr, NULL) == AH_OK && (ci != NULL) != dup[i] &&
                (cr != NULL) == dup[i],
            "state dir: call %d %s", i, dup[i] ? "suppressed" : "handled");
      ah_invocation_free(ci);
      ah_response_free(cr);
      ah_run_args_free(c);
    }
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d1, d2);
    CHECK(system(cmd) == 0, "rm state dirs");
  }
  {
    /* --observed: the injected mode is on the invocation's event, for handlers. */
    const char *hl[] = {"g", "agenthooks", "run", "--provider=claude-code",
                        "--observed={\"ancestors\":[[\"claude\",\"-p\",\"x\"]]}"};
    const char *pl = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"tool_name\":\"Bash\","
                     "\"tool_input\":{\"command\":\"ls\"}}";
    ah_run_args *c = NULL;
    ah_invocation *ci = NULL;
    ah_response *cr = NULL;
    CHECK(ah_run_args_parse(hl, 5, &c, NULL) == AH_OK && c, "observed: parse");
    CHECK(ah_invocation_prepare(c, NULL, 0, S(pl), NULL, &ci, &cr, NULL) == AH_OK && ci && !cr, "observed: prepare");
    if (ci) {
      ah_str mj = ah_event_session_mode_json(ah_invocation_event(ci));
      CHECK(str_eq(mj, "{\"interactive\":false,\"signal\":\"argv:-p\"}"), "observed: headless by argv:-p, got %.*s",
            (int)mj.len, mj.ptr ? mj.ptr : "");
    }
    ah_invocation_free(ci);
    ah_response_free(cr);
    ah_run_args_free(c);
  }
  CHECK(ah_run_args_parse(argv, 6, &a, NULL) == AH_OK && a, "parse again");
  const char *serve[] = {"g", "agenthooks", "serve", "--provider=opencode"};
  ah_run_args *sv = NULL;
  CHECK(ah_run_args_parse(serve, 4, &sv, NULL) == AH_OK && str_eq(ah_run_args_command(sv), "serve") &&
            !ah_run_args_reads_stdin(sv),
        "serve");
  ah_run_args_free(sv);
  const char *bad_serve[] = {"g", "agenthooks", "serve", "--provider=opencode", "--timeout=x"};
  sv = NULL;
  ans = NULL;
  CHECK(ah_run_start(bad_serve, 5, &sv, &ans, NULL) == AH_OK && !sv && ans && ah_response_exit_code(ans) == 2,
        "serve with a bad value: exit 2");
  ah_response_free(ans);
  ah_error *e = NULL;
  CHECK(ah_run_args_parse(bad_serve, 5, &sv, &e) == AH_ERR_INVALID_ARGUMENT && !sv && e, "parse: serve bad value");
  ah_error_free(e);
  /* The last argument is the legacy argv payload, used only when stdin is empty. */
  const char *ap[] = {"g", "agenthooks", "run", "--provider=cursor", "{\"hook_event_name\":\"beforeShellExecution\",\"command\":\"ls\"}"};
  CHECK(ah_run_args_parse(ap, 5, &sv, NULL) == AH_OK && ah_run_args_reads_stdin(sv), "argv payload: stdin first");
  ah_invocation *apinv = NULL;
  ah_response *apans = NULL;
  CHECK(ah_invocation_prepare(sv, NULL, 0, NULL, 0, NULL, &apinv, &apans, NULL) == AH_OK && apinv &&
            str_eq(ah_event_native_name(ah_invocation_event(apinv)), "beforeShellExecution"),
        "argv payload decoded when stdin is empty");
  ah_invocation_free(apinv);
  apinv = NULL;
  CHECK(ah_invocation_prepare(sv, NULL, 0, S("{\"hook_event_name\":\"beforeReadFile\",\"file_path\":\"/a\"}"), NULL,
                              &apinv, &apans, NULL) == AH_OK && apinv &&
            str_eq(ah_event_native_name(ah_invocation_event(apinv)), "beforeReadFile"),
        "stdin wins over the argv payload");
  ah_invocation_free(apinv);
  ah_run_args_free(sv);
  /* Unknown options are warnings; a bad value is answered per the fail policy. */
  const char *bad[] = {"g", "agenthooks", "run", "--provider=codex", "--bogus=1"};
  ah_run_args *b = NULL;
  CHECK(ah_run_args_parse(bad, 5, &b, NULL) == AH_OK && b &&
            contains(ah_run_args_warnings(b).ptr, ah_run_args_warnings(b).len, "--bogus", 7),
        "unknown option: a warning");
  apinv = NULL;
  apans = NULL;
  CHECK(ah_invocation_prepare(b, NULL, 0, S(PRE), NULL, &apinv, &apans, NULL) == AH_OK && apinv, "warning: runs");
  ah_response *wr = NULL;
  CHECK(ah_invocation_complete(apinv, NULL, 0, &wr, NULL) == AH_OK &&
            contains(ah_response_stderr(wr).ptr, ah_response_stderr(wr).len, "--bogus", 7),
        "the warning leads the answer's stderr");
  ah_response_free(wr);
  ah_invocation_free(apinv);
  ah_run_args_free(b);
  const char *badval[] = {"g", "agenthooks", "run", "--provider=codex", "--fail=closd"};
  CHECK(ah_run_args_parse(badval, 5, &b, NULL) == AH_OK && b, "bad value: parsed");
  j = json_parse(ah_run_args_json(b).ptr, ah_run_args_json(b).len);
  CHECK(json_str_is(json_get(json_get(j, "problem"), "code"), "invalid_argument") &&
            json_str_is(json_get(j, "fail"), "closed"),
        "bad --fail: a problem, read as closed");
  json_free(j);
  apinv = NULL;
  apans = NULL;
  CHECK(ah_invocation_prepare(b, NULL, 0, S(PRE), NULL, &apinv, &apans, NULL) == AH_OK && !apinv && apans &&
            contains(ah_response_stdout(apans).ptr, ah_response_stdout(apans).len, "deny", 4),
        "bad --fail: Codex's deny");
  ah_response_free(apans);
  ah_run_args_free(b);
  const char *utf[] = {"g", "agenthooks", "\xff"};
  CHECK(ah_run_args_parse(utf, 3, &b, NULL) == AH_ERR_INVALID_UTF8, "argv utf8");
  CHECK(ah_run_start(utf, 3, &b, &ans, NULL) == AH_ERR_INVALID_UTF8, "start argv utf8");
  const char *nul[] = {"g", NULL};
  CHECK(ah_run_args_parse(nul, 2, &b, NULL) == AH_ERR_NULL_ARG, "argv NULL element");
  CHECK(ah_run_args_parse(NULL, 1, &b, NULL) == AH_ERR_NULL_ARG, "argv NULL");
  CHECK(ah_run_args_parse(NULL, 0, &b, NULL) == AH_OK && b == NULL, "empty argv");
  CHECK(ah_run_args_parse(argv, 6, NULL, NULL) == AH_ERR_NULL_ARG, "parse NULL out");
  CHECK(ah_run_start(argv, 6, NULL, &ans, NULL) == AH_ERR_NULL_ARG, "start NULL args out");
  CHECK(ah_run_start(argv, 6, &b, NULL, NULL) == AH_ERR_NULL_ARG, "start NULL answer out");
  CHECK(ah_run_args_json(NULL).ptr == NULL && ah_run_args_max_bytes(NULL) == 0, "args NULL");
  CHECK(ah_run_args_command(NULL).ptr == NULL && !ah_run_args_reads_stdin(NULL), "args NULL 2");
  CHECK(ah_run_args_warnings(NULL).ptr == NULL, "args NULL 3");
  ah_run_args_free(NULL);

  /* Reading a descriptor within the limit. */
  int fds[2];
  CHECK(pipe(fds) == 0, "pipe");
  CHECK(write(fds[1], PRE, strlen(PRE)) == (ssize_t)strlen(PRE), "write pipe");
  close(fds[1]);
  ah_buf *in = NULL;
  CHECK(ah_read_fd_limited(fds[0], 4096, &in, NULL) == AH_OK && str_eq(ah_buf_str(in), PRE), "read fd");
  close(fds[0]);
  CHECK(pipe(fds) == 0, "pipe 2");
  CHECK(write(fds[1], "0123456789", 10) == 10, "write pipe 2");
  close(fds[1]);
  ah_error *rerr = NULL;
  ah_buf *in2 = NULL;
  CHECK(ah_read_fd_limited(fds[0], 5, &in2, &rerr) == AH_ERR_TOO_LARGE && !in2 && rerr, "read fd too large");
  close(fds[0]);
  /* ah_read_stdin keeps limit + 1 bytes (prepare answers too_large with them). */
  CHECK(pipe(fds) == 0, "pipe 3");
  CHECK(write(fds[1], "0123456789", 10) == 10, "write pipe 3");
  close(fds[1]);
  CHECK(ah_read_stdin(fds[0], 5, &in2, NULL) == AH_OK && str_eq(ah_buf_str(in2), "012345"), "read stdin: limit + 1");
  ah_buf_free(in2);
  close(fds[0]);
  CHECK(pipe(fds) == 0, "pipe 4");
  CHECK(write(fds[1], "01", 2) == 2, "write pipe 4");
  close(fds[1]);
  in2 = NULL;
  CHECK(ah_read_stdin(fds[0], SIZE_MAX, &in2, NULL) == AH_OK && str_eq(ah_buf_str(in2), "01"), "read stdin: no overflow");
  ah_buf_free(in2);
  in2 = NULL;
  close(fds[0]);
  e = NULL;
  CHECK(ah_read_stdin(-1, 5, &in2, &e) == AH_ERR_IO && e && !in2, "read stdin bad fd");
  ah_error_free(e);
  CHECK(ah_read_stdin(0, 5, NULL, NULL) == AH_ERR_NULL_ARG, "read stdin NULL out");
  e = NULL;
  CHECK(ah_read_fd_limited(-1, 5, &in2, &e) == AH_ERR_IO && e, "read bad fd");
  ah_error_free(e);
  CHECK(ah_read_fd_limited(0, 5, NULL, NULL) == AH_ERR_NULL_ARG, "read NULL out");

  /* The three steps. */
  ah_invocation *inv = NULL;
  ah_response *answer = NULL;
  ah_str data = ah_buf_str(in);
  CHECK(ah_invocation_prepare(a, NULL, 0, (const uint8_t *)data.ptr, data.len, NULL, &inv, &answer, NULL) == AH_OK &&
            inv && !answer,
        "prepare");
  CHECK(ah_invocation_deadline_ms(inv) == 9000, "deadline 90%% of --timeout: %llu",
        (unsigned long long)ah_invocation_deadline_ms(inv));
  ah_str ej = ah_invocation_event_json(inv);
  const ah_event *ev = ah_invocation_event(inv);
  CHECK(ev && ej.ptr == ah_event_json(ev).ptr && str_eq(ah_event_kind(ev), "tool.pre"), "invocation event");
  ah_str vw = ah_invocation_event_view(inv);
  j = json_parse(vw.ptr, vw.len);
  CHECK(j && json_str_is(json_get(j, "kind"), "tool.pre") && !json_get(j, "raw") && vw.ptr == ah_invocation_event_view(inv).ptr,
        "event view: the canonical JSON without raw");
  json_free(j);
  j = json_parse(ah_invocation_policy_json(inv).ptr, ah_invocation_policy_json(inv).len);
  CHECK(json_str_is(json_get(j, "fail"), "open"), "policy json");
  json_free(j);
  ah_response *r = NULL;
  CHECK(ah_invocation_complete(inv, S("{\"kind\":\"deny\",\"reason\":\"no\"}"), &r, NULL) == AH_OK && r, "complete");
  CHECK(contains(ah_response_stdout(r).ptr, ah_response_stdout(r).len, "deny", 4), "complete deny");
  ah_response_free(r);
  r = NULL;
  e = NULL;
  CHECK(ah_invocation_complete(inv, NULL, 0, &r, &e) == AH_ERR_ALREADY_USED && !r && e, "complete twice");
  ah_error_free(e);
  CHECK(ah_invocation_complete_error(inv, AH_ERR_PANIC, S("x"), &r, NULL) == AH_ERR_ALREADY_USED, "complete_error after");
  ah_invocation_free(inv);

  /* complete_error: handler error, panic, timeout under fail: closed. */
  uint32_t codes[] = {AH_ERR_HANDLER_ERROR, AH_ERR_PANIC, AH_ERR_HANDLER_TIMEOUT};
  const char *ids[] = {"handler_error", "panic", "handler_timeout"};
  for (int i = 0; i < 3; i++) {
    inv = NULL;
    CHECK(ah_invocation_prepare(a, S("{\"fail\":\"closed\"}"), (const uint8_t *)data.ptr, data.len, NULL, &inv,
                                &answer, NULL) == AH_OK,
          "prepare %d", i);
    r = NULL;
    CHECK(ah_invocation_complete_error(inv, codes[i], S("it broke"), &r, NULL) == AH_OK, "complete_error %d", i);
    CHECK(contains(ah_response_stdout(r).ptr, ah_response_stdout(r).len, "deny", 4) &&
              contains(ah_response_stderr(r).ptr, ah_response_stderr(r).len, ids[i], strlen(ids[i])),
          "fail closed on %s: %.*s", ids[i], (int)ah_response_stderr(r).len, ah_response_stderr(r).ptr);
    ah_response_free(r);
    ah_invocation_free(inv);
  }
  inv = NULL;
  CHECK(ah_invocation_prepare(a, NULL, 0, S(PRE), NULL, &inv, &answer, NULL) == AH_OK, "prepare again");
  CHECK(ah_invocation_complete_error(inv, 12345, S("x"), &r, NULL) == AH_ERR_INVALID_ARGUMENT, "complete_error bad code");
  CHECK(ah_invocation_complete_error(inv, AH_ERR_HANDLER_ERROR, S(BAD_UTF8), &r, NULL) == AH_ERR_INVALID_UTF8,
        "complete_error bad message");
  CHECK(ah_invocation_complete_error(inv, AH_ERR_HANDLER_ERROR, S("x"), NULL, NULL) == AH_ERR_NULL_ARG,
        "complete_error NULL out");
  r = NULL;
  CHECK(ah_invocation_complete(inv, S("{\"kind\":\"bogus\"}"), &r, NULL) == AH_OK && r, "bad decision: fail answer");
  CHECK(contains(ah_response_stderr(r).ptr, ah_response_stderr(r).len, "invalid_decision", 16), "invalid decision");
  ah_response_free(r);
  ah_invocation_free(inv);
  inv = NULL;
  CHECK(ah_invocation_prepare(a, NULL, 0, S(PRE), NULL, &inv, &answer, NULL) == AH_OK, "prepare utf8");
  r = NULL;
  CHECK(ah_invocation_complete(inv, S(BAD_UTF8), &r, NULL) == AH_OK && r, "bad utf8 decision: fail answer");
  ah_response_free(r);
  CHECK(ah_invocation_complete(NULL, NULL, 0, &r, NULL) == AH_ERR_NULL_ARG, "complete NULL inv");
  CHECK(ah_invocation_complete(inv, NULL, 0, NULL, NULL) == AH_ERR_NULL_ARG, "complete NULL out");
  CHECK(ah_invocation_complete_error(NULL, AH_ERR_PANIC, NULL, 0, &r, NULL) == AH_ERR_NULL_ARG, "complete_error NULL");
  ah_invocation_free(inv);

  /* prepare answers directly: unknown provider, read failure, too large, bad input. */
  const char *unknown[] = {"g", "agenthooks", "run", "--provider=vim"};
  ah_run_args *ua = NULL;
  CHECK(ah_run_args_parse(unknown, 4, &ua, NULL) == AH_OK, "parse unknown provider");
  inv = NULL;
  answer = NULL;
  CHECK(ah_invocation_prepare(ua, NULL, 0, S(PRE), NULL, &inv, &answer, NULL) == AH_OK && !inv && answer,
        "unknown provider: answer");
  CHECK(ah_response_exit_code(answer) == 0 && ah_response_stdout(answer).len == 0, "unknown provider: no opinion");
  ah_response_free(answer);
  ah_run_args_free(ua);
  answer = NULL;
  CHECK(ah_invocation_prepare(a, S("{\"fail\":\"closed\"}"), NULL, 0, rerr, &inv, &answer, NULL) == AH_OK && answer &&
            ah_response_exit_code(answer) == 2,
        "read error under fail closed: exit 2");
  CHECK(contains(ah_response_stderr(answer).ptr, ah_response_stderr(answer).len, "too_large", 9), "read error stderr");
  ah_response_free(answer);
  const char *small[] = {"g", "agenthooks", "run", "--provider=codex", "--max-bytes=10"};
  ah_run_args *sa = NULL;
  CHECK(ah_run_args_parse(small, 5, &sa, NULL) == AH_OK && ah_run_args_max_bytes(sa) == 10, "max-bytes");
  answer = NULL;
  CHECK(ah_invocation_prepare(sa, NULL, 0, S(PRE), NULL, &inv, &answer, NULL) == AH_OK && answer &&
            contains(ah_response_stderr(answer).ptr, ah_response_stderr(answer).len, "too_large", 9),
        "payload over the limit");
  ah_response_free(answer);
  ah_run_args_free(sa);
  answer = NULL;
  CHECK(ah_invocation_prepare(a, NULL, 0, S("{nope"), NULL, &inv, &answer, NULL) == AH_OK && answer, "bad input");
  ah_response_free(answer);
  CHECK(ah_invocation_prepare(a, S("{\"x\":1}"), S(PRE), NULL, &inv, &answer, NULL) == AH_ERR_INVALID_ARGUMENT,
        "prepare bad policy");
  CHECK(ah_invocation_prepare(NULL, NULL, 0, S(PRE), NULL, &inv, &answer, NULL) == AH_ERR_NULL_ARG, "prepare NULL args");
  CHECK(ah_invocation_prepare(a, NULL, 0, S(PRE), NULL, NULL, &answer, NULL) == AH_ERR_NULL_ARG, "prepare NULL out");
  CHECK(ah_invocation_prepare(a, NULL, 0, S(PRE), NULL, &inv, NULL, NULL) == AH_ERR_NULL_ARG, "prepare NULL answer");
  CHECK(ah_invocation_prepare(a, NULL, 0, NULL, 3, NULL, &inv, &answer, NULL) == AH_ERR_NULL_ARG, "prepare NULL payload");
  /* prepare_fd: the core reads the descriptor itself (the payload goes
   * into the event without a copy through the caller); a large payload's
   * output is read back whole; a bad descriptor is a read error answered
   * per the policy. */
  {
    int pfd[2];
    CHECK(pipe(pfd) == 0, "pipe");
    CHECK(write(pfd[1], PRE, strlen(PRE)) == (ssize_t)strlen(PRE), "pipe write");
    close(pfd[1]);
    ah_invocation *fi = NULL;
    ah_response *fr = NULL;
    CHECK(ah_invocation_prepare_fd(a, NULL, 0, pfd[0], &fi, &fr, NULL) == AH_OK && fi && !fr, "prepare_fd");
    close(pfd[0]);
    ah_str raw = ah_event_raw(ah_invocation_event(fi));
    CHECK(raw.len == strlen(PRE) && memcmp(raw.ptr, PRE, raw.len) == 0, "prepare_fd: raw is the payload");
    CHECK(str_eq(ah_event_kind(ah_invocation_event(fi)), "tool.pre"), "prepare_fd: decoded");
    ah_invocation_free(fi);
    fi = NULL;
    fr = NULL;
    CHECK(ah_invocation_prepare_fd(a, S("{\"fail\":\"closed\"}"), -1, &fi, &fr, NULL) == AH_OK && !fi && fr &&
              ah_response_exit_code(fr) == 2,
          "prepare_fd: bad fd under fail closed: exit 2");
    ah_response_free(fr);
    const char *tiny[] = {"g", "agenthooks", "run", "--provider=codex", "--max-bytes=10"};
    ah_run_args *ta = NULL;
    CHECK(ah_run_args_parse(tiny, 5, &ta, NULL) == AH_OK, "tiny args");
    CHECK(pipe(pfd) == 0, "pipe 2");
    CHECK(write(pfd[1], PRE, strlen(PRE)) == (ssize_t)strlen(PRE), "pipe write 2");
    close(pfd[1]);
    fr = NULL;
    CHECK(ah_invocation_prepare_fd(ta, NULL, 0, pfd[0], &fi, &fr, NULL) == AH_OK && fr &&
              contains(ah_response_stderr(fr).ptr, ah_response_stderr(fr).len, "too_large", 9),
          "prepare_fd: over the limit");
    close(pfd[0]);
    ah_response_free(fr);
    ah_run_args_free(ta);
    CHECK(ah_invocation_prepare_fd(NULL, NULL, 0, 0, &fi, &fr, NULL) == AH_ERR_NULL_ARG, "prepare_fd NULL args");
    CHECK(ah_invocation_prepare_fd(a, NULL, 0, 0, NULL, &fr, NULL) == AH_ERR_NULL_ARG, "prepare_fd NULL out");
  }
  CHECK(ah_invocation_event(NULL) == NULL && ah_invocation_event_json(NULL).ptr == NULL, "invocation NULL");
  CHECK(ah_invocation_event_view(NULL).ptr == NULL, "invocation NULL view");
  CHECK(ah_invocation_deadline_ms(NULL) == 0 && ah_invocation_policy_json(NULL).ptr == NULL, "invocation NULL 2");
  /* Async hooks and prompt backfill (docs/async.md): NULL handling and the
   * ancestry setter's validation; the behaviour is the Go runner's
   * (fixtures/async). */
  {
    ah_response *dr = NULL;
    ah_event *bf = NULL;
    ah_dispatch *od = NULL;
    CHECK(!ah_invocation_detaching(NULL), "detaching NULL");
    CHECK(ah_invocation_detach(NULL, NULL, 0, &dr, NULL) == AH_ERR_NULL_ARG, "detach NULL inv");
    CHECK(ah_invocation_backfill(NULL, &bf, NULL) == AH_ERR_NULL_ARG, "backfill NULL inv");
    CHECK(ah_dispatch_new_observers(NULL, &od, NULL) == AH_ERR_NULL_ARG, "observers dispatch NULL router");
    CHECK(ah_run_args_set_ancestry(a, S("[[\"cursor-agent\",\"-p\",\"x\"]]"), NULL) == AH_OK, "ancestry ok");
    CHECK(ah_run_args_set_ancestry(a, S("{\"not\":\"a list\"}"), NULL) == AH_ERR_INVALID_ARGUMENT, "ancestry bad");
    CHECK(ah_run_args_set_ancestry(a, NULL, 0, NULL) == AH_OK, "ancestry cleared");
    CHECK(ah_run_args_set_ancestry(NULL, NULL, 0, NULL) == AH_ERR_NULL_ARG, "ancestry NULL args");
  }
  ah_invocation_free(NULL);
  ah_error_free(rerr);
  ah_buf_free(in);
  ah_run_args_free(a);

  /* Deadlines. */
  uint64_t ms = 0;
  CHECK(ah_policy_deadline_ms(NULL, 0, 10.0, &ms, NULL) == AH_OK && ms == 9000, "deadline 10 s");
  CHECK(ah_policy_deadline_ms(NULL, 0, 0.0, &ms, NULL) == AH_OK && ms == 55000, "deadline default");
  CHECK(ah_policy_deadline_ms(NULL, 0, NAN, &ms, NULL) == AH_OK && ms == 55000, "deadline NaN");
  CHECK(ah_policy_deadline_ms(S("{\"timeout_ms\":5}"), 10.0, &ms, NULL) == AH_OK && ms == 5, "deadline policy");
  CHECK(ah_policy_deadline_ms(S("{\"timeout_ms\":\"x\"}"), 1.0, &ms, NULL) == AH_ERR_INVALID_ARGUMENT, "deadline bad");
  CHECK(ah_policy_deadline_ms(NULL, 0, 1.0, NULL, NULL) == AH_ERR_NULL_ARG, "deadline NULL out");
}

/* The deprecated serve steps (superseded by ah_bridge_*), still exported. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void test_serve(void) {
  const char *argv[] = {"g", "agenthooks", "serve", "--provider=opencode", "--fail=closed", "--max-bytes=100"};
  ah_run_args *a = NULL;
  CHECK(ah_run_args_parse(argv, 6, &a, NULL) == AH_OK && a, "serve args");
  uint32_t kind = 99;
  ah_buf *out = NULL;
  CHECK(ah_serve_step(a, NULL, 0, S("  "), 0, &kind, &out, NULL) == AH_OK && kind == AH_SERVE_SKIP && !out, "blank: skip");
  CHECK(ah_serve_step(a, NULL, 0, S("{\"hello\":{}}"), 0, &kind, &out, NULL) == AH_OK && kind == AH_SERVE_REPLY && out,
        "hello: reply");
  ah_str t = ah_buf_str(out);
  CHECK(contains(t.ptr, t.len, "\"fail\":\"closed\"", 15), "hello names the effective policy");
  ah_buf_free(out);
  out = NULL;
  CHECK(ah_serve_step(a, NULL, 0, S("not json"), 0, &kind, &out, NULL) == AH_OK && kind == AH_SERVE_REPLY && out,
        "not json: reply");
  t = ah_buf_str(out);
  CHECK(contains(t.ptr, t.len, "\"throw\":", 8) && contains(t.ptr, t.len, "invalid_json", 12),
        "not json: the fail-closed answer and the error");
  ah_buf_free(out);
  out = NULL;
  CHECK(ah_serve_step(a, NULL, 0, S("{\"seq\":7,\"x\":\"xxxx"), 500, &kind, &out, NULL) == AH_OK && kind == AH_SERVE_REPLY,
        "too long: reply");
  t = ah_buf_str(out);
  CHECK(contains(t.ptr, t.len, "\"seq\":7", 7) && contains(t.ptr, t.len, "too_large", 9), "too long: seq recovered");
  ah_buf_free(out);
  out = NULL;
  const char *req = "{\"seq\":\"a\",\"hook\":\"tool.execute.before\",\"input\":{\"sessionID\":\"s1\"}}";
  CHECK(ah_serve_step(a, NULL, 0, S(req), 0, &kind, &out, NULL) == AH_OK && kind == AH_SERVE_REQUEST, "request");
  t = ah_buf_str(out);
  CHECK(t.len == strlen("{\"seq\":\"a\",\"session\":\"s1\"}") && memcmp(t.ptr, "{\"seq\":\"a\",\"session\":\"s1\"}", t.len) == 0,
        "request: seq and session");
  ah_buf_free(out);
  out = NULL;
  CHECK(ah_serve_step(NULL, NULL, 0, S("x"), 0, &kind, &out, NULL) == AH_ERR_NULL_ARG, "step NULL args");
  CHECK(ah_serve_step(a, NULL, 0, S("x"), 0, NULL, &out, NULL) == AH_ERR_NULL_ARG, "step NULL kind");
  CHECK(ah_serve_step(a, NULL, 0, S("x"), 0, &kind, NULL, NULL) == AH_ERR_NULL_ARG, "step NULL out");
  CHECK(ah_serve_step(a, S("{\"x\":1}"), S("x"), 0, &kind, &out, NULL) == AH_ERR_INVALID_ARGUMENT, "step bad policy");
  ah_run_args_free(a);
  const char *none[] = {"g", "agenthooks", "serve"};
  CHECK(ah_run_args_parse(none, 3, &a, NULL) == AH_OK && a, "serve args without provider");
  CHECK(ah_serve_step(a, NULL, 0, S("x"), 0, &kind, &out, NULL) == AH_ERR_INVALID_ARGUMENT, "step needs a provider");
  ah_run_args_free(a);

  CHECK(ah_serve_reply(S("3"), S("{\"stdout\":\"\",\"stderr\":\"\",\"exit_code\":0}"), &out, NULL) == AH_OK, "reply");
  t = ah_buf_str(out);
  CHECK(t.len == strlen("{\"output\":null,\"seq\":3}") && memcmp(t.ptr, "{\"output\":null,\"seq\":3}", t.len) == 0,
        "reply: output null is no opinion");
  ah_buf_free(out);
  out = NULL;
  CHECK(ah_serve_reply(S("3"), S("{}"), &out, NULL) == AH_ERR_INVALID_JSON, "reply bad response");
  CHECK(ah_serve_reply(S("3"), S("{\"stdout\":\"\",\"stderr\":\"\",\"exit_code\":0}"), NULL, NULL) == AH_ERR_NULL_ARG,
        "reply NULL out");
  CHECK(ah_serve_reply(NULL, 1, S("{}"), &out, NULL) == AH_ERR_NULL_ARG, "reply NULL seq");
  CHECK(ah_serve_abandoned_cap() == 32 && ah_serve_head_bytes() == 256, "serve bounds");
  t = ah_serve_overloaded_message();
  CHECK(t.ptr && t.ptr[t.len] == 0 && contains(t.ptr, t.len, "32 handlers", 11), "overloaded message");
}
#pragma GCC diagnostic pop

/* Takes the single job of an output (NULL when it has none). */
static ah_bridge_job *only_job(ah_bridge_output *o) {
  if (ah_bridge_output_job_count(o) != 1) return NULL;
  ah_bridge_job *j = NULL;
  if (ah_bridge_output_take_job(o, 0, &j, NULL) != AH_OK) return NULL;
  return j;
}

/* The serve bridge state machine: sessions in parallel, each in order. */
static void test_bridge(void) {
  const char *argv[] = {"g", "agenthooks", "serve", "--provider=opencode", "--fail=closed", "--max-bytes=4096"};
  ah_run_args *a = NULL;
  ah_response *ans = NULL;
  CHECK(ah_run_start(argv, 6, &a, &ans, NULL) == AH_OK && a && !ans, "bridge args");
  ah_bridge *b = NULL;
  CHECK(ah_bridge_new(a, NULL, 0, &b, NULL) == AH_OK && b, "bridge new");
  CHECK(ah_bridge_max_line(b) == 4096 && ah_bridge_workers(b) >= 2 && ah_bridge_head_bytes() == 256, "bridge bounds");
  CHECK(ah_bridge_wants_input(b) && ah_bridge_idle(b), "a new bridge wants input");
  ah_bridge_output *o = NULL;
  CHECK(ah_bridge_feed(b, S("{\"hello\":{\"provider\":\"opencode\"}}"), 0, &o, NULL) == AH_OK && o, "feed hello");
  ah_str t = ah_bridge_output_frames(o);
  CHECK(t.len > 0 && t.ptr[t.len - 1] == '\n' && contains(t.ptr, t.len, "\"fail\":\"closed\"", 15), "hello reply line");
  CHECK(ah_bridge_output_job_count(o) == 0, "hello runs nothing");
  ah_bridge_output_free(o);
#define REQ(seq, ses, cmd)                                                                              \
  "{\"seq\":" seq ",\"hook\":\"tool.execute.before\",\"input\":{\"tool\":\"bash\",\"sessionID\":\"" ses \
  "\",\"callID\":\"c" seq "\"},\"output\":{\"args\":{\"command\":\"" cmd "\"}}}"
  ah_bridge_output *o1 = NULL, *o2 = NULL, *o3 = NULL;
  CHECK(ah_bridge_feed(b, S(REQ("1", "A", "ls")), 0, &o1, NULL) == AH_OK, "feed 1");
  CHECK(ah_bridge_feed(b, S(REQ("2", "A", "rm -rf /")), 0, &o2, NULL) == AH_OK, "feed 2");
  CHECK(ah_bridge_feed(b, S(REQ("3", "B", "ls")), 0, &o3, NULL) == AH_OK, "feed 3");
  ah_bridge_job *j1 = only_job(o1), *j3 = only_job(o3);
  CHECK(j1 && j3 && ah_bridge_output_job_count(o2) == 0, "A's second request waits, B runs at once");
  ah_bridge_job *again = NULL;
  CHECK(ah_bridge_output_take_job(o1, 0, &again, NULL) == AH_ERR_ALREADY_USED, "a job is taken once");
  CHECK(ah_bridge_output_take_job(o1, 5, &again, NULL) == AH_ERR_INVALID_ARGUMENT, "job index out of range");
  ah_str ev = ah_event_raw(ah_bridge_job_event(j1));
  CHECK(ev.ptr && ev.ptr[ev.len] == 0 && contains(ev.ptr, ev.len, "\"seq\":1", 7), "the job's raw event, NUL-terminated");
  CHECK(ah_bridge_job_deadline_ms(j1) == 55000 && ah_bridge_job_id(j1) != ah_bridge_job_id(j3), "job deadline and ids");
  ah_bridge_output_free(o1);
  ah_bridge_output_free(o2);
  ah_bridge_output_free(o3);
  /* B finishes first: its reply does not wait for A. */
  const char *none = "{\"kind\":\"no_decision\"}";
  CHECK(ah_bridge_finish(b, ah_bridge_job_id(j3), S(none), &o, NULL) == AH_OK, "finish 3");
  t = ah_bridge_output_frames(o);
  CHECK(contains(t.ptr, t.len, "\"seq\":3", 7) && ah_bridge_output_job_count(o) == 0, "reply 3");
  ah_bridge_output_free(o);
  CHECK(ah_bridge_finish(b, ah_bridge_job_id(j3), S(none), &o, NULL) == AH_ERR_INVALID_ARGUMENT, "a job finishes once");
  ah_bridge_job_free(j3);
  /* A's first finishes: its reply, then A's second request. */
  CHECK(ah_bridge_finish(b, ah_bridge_job_id(j1), NULL, 0, &o, NULL) == AH_OK, "finish 1");
  t = ah_bridge_output_frames(o);
  CHECK(contains(t.ptr, t.len, "\"seq\":1", 7) && contains(t.ptr, t.len, "\"output\":null", 13), "reply 1");
  ah_bridge_job *j2 = only_job(o);
  CHECK(j2 != NULL, "A's next request follows");
  ah_bridge_output_free(o);
  ah_bridge_job_free(j1);
  CHECK(!ah_bridge_idle(b), "busy while a job runs");
  /* Past the deadline: the fail policy answers (closed: a block). */
  CHECK(ah_bridge_finish_error(b, ah_bridge_job_id(j2), AH_ERR_HANDLER_TIMEOUT, NULL, 0, &o, NULL) == AH_OK, "timeout");
  t = ah_bridge_output_frames(o);
  CHECK(contains(t.ptr, t.len, "handler_timeout", 15) && contains(t.ptr, t.len, "\"throw\":", 8), "timeout reply");
  t = ah_bridge_output_stderr(o);
  CHECK(contains(t.ptr, t.len, "handler_timeout", 15), "timeout on stderr");
  ah_bridge_output_free(o);
  ah_bridge_abandoned_done(b, ah_bridge_job_id(j2));
  ah_bridge_job_free(j2);
  CHECK(ah_bridge_idle(b), "idle when all are answered");
  /* A handler error, and a line over the limit. */
  CHECK(ah_bridge_feed(b, S(REQ("4", "C", "x")), 0, &o, NULL) == AH_OK, "feed 4");
  ah_bridge_job *j4 = only_job(o);
  ah_bridge_output_free(o);
  CHECK(j4 && ah_bridge_finish_error(b, ah_bridge_job_id(j4), AH_ERR_HANDLER_ERROR, S("boom"), &o, NULL) == AH_OK,
        "handler error");
  t = ah_bridge_output_frames(o);
  CHECK(contains(t.ptr, t.len, "handler_error", 13) && contains(t.ptr, t.len, "boom", 4), "handler error reply");
  ah_bridge_output_free(o);
  ah_bridge_job_free(j4);
  CHECK(ah_bridge_finish_error(b, 99, 12345, NULL, 0, &o, NULL) == AH_ERR_INVALID_ARGUMENT, "no such status");
  CHECK(ah_bridge_feed(b, S("{\"seq\":9,\"x\":\"xx"), 90000, &o, NULL) == AH_OK, "too long");
  t = ah_bridge_output_frames(o);
  CHECK(contains(t.ptr, t.len, "\"seq\":9", 7) && contains(t.ptr, t.len, "too_large", 9), "too long: seq recovered");
  ah_bridge_output_free(o);
  CHECK(ah_bridge_feed(NULL, S("x"), 0, &o, NULL) == AH_ERR_NULL_ARG, "feed NULL bridge");
  CHECK(ah_bridge_feed(b, S("x"), 0, NULL, NULL) == AH_ERR_NULL_ARG, "feed NULL out");
  CHECK(!ah_bridge_wants_input(NULL) && ah_bridge_idle(NULL) && ah_bridge_max_line(NULL) == 0, "NULL sentinels");
  ah_bridge_free(b);
  ah_bridge_free(NULL);
  ah_bridge_output_free(NULL);
  ah_bridge_job_free(NULL);
  ah_run_args_free(a);
  const char *noprov[] = {"g", "agenthooks", "serve"};
  CHECK(ah_run_start(noprov, 3, &a, &ans, NULL) == AH_OK && a, "serve without provider");
  ah_error *e = NULL;
  CHECK(ah_bridge_new(a, NULL, 0, &b, &e) == AH_ERR_INVALID_ARGUMENT && e, "a bridge needs a provider");
  ah_error_free(e);
  CHECK(ah_bridge_new(a, S("{\"x\":1}"), &b, NULL) == AH_ERR_INVALID_ARGUMENT, "bad policy");
  ah_run_args_free(a);
#undef REQ
}

/* Last: fd 1 is diverted to stderr for the rest of the process. */
static void test_stdout_guard(void) {
  ah_stdout_guard *g = NULL;
  CHECK(ah_stdout_divert(NULL, NULL) == AH_ERR_NULL_ARG, "divert NULL out");
  CHECK(ah_stdout_divert(&g, NULL) == AH_OK && g, "divert");
  printf("(stray print: goes to stderr)\n");
  fflush(stdout);
  CHECK(ah_stdout_guard_write(g, S("stdout guard: answer\n"), NULL) == AH_OK, "guard write");
  CHECK(ah_stdout_guard_write(g, NULL, 0, NULL) == AH_OK, "guard write empty");
  CHECK(ah_stdout_guard_write(NULL, S("x"), NULL) == AH_ERR_NULL_ARG, "guard write NULL");
  CHECK(ah_stdout_guard_write(g, NULL, 2, NULL) == AH_ERR_NULL_ARG, "guard write NULL data");
  ah_stdout_guard_free(g);
  ah_stdout_guard_free(NULL);
}

/* ------------------------------------------------- host and install */

/* Calls one of the JSON-in/JSON-out functions; returns the parsed answer
 * (NULL when the call failed or the answer is not JSON). */
static jval *json_call(ah_status (*f)(const uint8_t *, size_t, ah_buf **, ah_error **), const char *req,
                       ah_status *st) {
  ah_buf *b = NULL;
  *st = f((const uint8_t *)req, strlen(req), &b, NULL);
  jval *j = b ? json_parse(ah_buf_str(b).ptr, ah_buf_str(b).len) : NULL;
  ah_buf_free(b);
  return j;
}

static const char *error_code(const jval *j) {
  const jval *c = json_get(json_get(j, "error"), "code");
  return c && c->type == J_STR ? c->s : NULL;
}

static void test_host(void) {
  /* A Claude Code settings.json whose Bash hook blocks with exit 2. */
  static const char *RUN =
      "{\"dialect\":\"claude-code\",\"configs\":[{\"source\":\"settings.json\",\"text\":"
      "\"{\\\"hooks\\\":{\\\"PreToolUse\\\":[{\\\"matcher\\\":\\\"Bash\\\",\\\"hooks\\\":[{\\\"type\\\":\\\"command\\\","
      "\\\"command\\\":\\\"echo blocked >&2; exit 2\\\"}]}]}}\"}],"
      "\"event\":{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
      "\"tool_input\":{\"command\":\"ls\"},\"tool_use_id\":\"t\"}}";
  ah_status st;
  jval *j = json_call(ah_host_run_json, RUN, &st);
  const jval *outcome = json_get(j, "outcome"), *hooks = json_get(j, "hooks");
  CHECK(st == AH_OK && json_str_is(json_get(outcome, "decision"), "deny") &&
            json_str_is(json_get(outcome, "reason"), "blocked"),
        "host run: outcome");
  CHECK(hooks && hooks->type == J_ARR && hooks->n == 1 && json_get(hooks->items[0], "exit_code") &&
            strcmp(json_get(hooks->items[0], "exit_code")->s, "2") == 0,
        "host run: one hook, exit 2");
  CHECK(json_get(j, "audit") && json_get(j, "warnings") && json_str_is(json_get(j, "event"), "PreToolUse"),
        "host run: audit, warnings, event");
  json_free(j);
  /* The hook exits without reading its stdin: the library's write to it
   * raises SIGPIPE, which it blocks (this program does not ignore it). */
  for (int i = 0; i < 30; i++) {
    j = json_call(ah_host_run_json, RUN, &st);
    CHECK(st == AH_OK && json_str_is(json_get(json_get(j, "outcome"), "decision"), "deny"), "host run %d", i);
    json_free(j);
  }
  /* No hook matches: nothing runs. */
  j = json_call(ah_host_run_json, "{\"dialect\":\"codex\",\"event\":{\"hook_event_name\":\"PreToolUse\",\"tool_name\":"
                                  "\"Bash\",\"tool_input\":{},\"session_id\":\"s\",\"cwd\":\"/tmp\"}}",
                &st);
  CHECK(st == AH_OK && !json_get(j, "error") && json_get(j, "hooks")->n == 0, "host run: empty config");
  json_free(j);
  /* Requests the core rejects: AH_OK and {"error": ...} JSON. */
  const char *bad[][2] = {{"nope", "invalid_argument"},
                          {"{}", "invalid_argument"},
                          {"{\"dialect\":\"cursor\",\"event\":{}}", NULL},
                          /* strict: an invalid matcher refuses the configuration (else its group is skipped) */
                          {"{\"dialect\":\"claude-code\",\"strict\":true,\"configs\":[{\"text\":\"{\\\"hooks\\\":{\\\"PreToolUse\\\":[{"
                           "\\\"matcher\\\":\\\"Bash(\\\",\\\"hooks\\\":[{\\\"type\\\":\\\"command\\\",\\\"command\\\":"
                           "\\\"x\\\"}]}]}}\"}],\"event\":{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                           "\"tool_input\":{}}}",
                           "config_rejected"},
                          {"{\"dialect\":\"codex\",\"configs\":[{\"path\":\"/nonexistent/hooks.json\"}],\"event\":{}}",
                           "io"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    j = json_call(ah_host_run_json, bad[i][0], &st);
    const char *code = error_code(j);
    CHECK(st == AH_OK && code && (!bad[i][1] || strcmp(code, bad[i][1]) == 0), "host run bad %zu: %s", i,
          code ? code : "(no error)");
    if (i == 3) CHECK(json_get(json_get(j, "error"), "diagnostics") != NULL, "config_rejected has diagnostics");
    json_free(j);
  }

  /* Matchers in each dialect's flavour. */
  j = json_call(ah_matcher_json, "{\"dialect\":\"codex\",\"pattern\":\"(?i)^bash$\",\"subjects\":[\"BASH\",\"Write\"]}",
                &st);
  const jval *m = json_get(j, "matches");
  CHECK(st == AH_OK && m && m->n == 2 && m->items[0]->b && !m->items[1]->b, "matcher codex");
  json_free(j);
  j = json_call(ah_matcher_json, "{\"dialect\":\"claude-code\",\"pattern\":\"(?i)bash\",\"subjects\":[]}", &st);
  CHECK(st == AH_OK && json_get(j, "error"), "matcher: (?i) is not ECMAScript");
  json_free(j);
  j = json_call(ah_matcher_json, "[]", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "invalid_argument") == 0, "matcher bad request");
  json_free(j);

  /* Boundary faults fail the call, for all three. */
  ah_status (*fs[])(const uint8_t *, size_t, ah_buf **, ah_error **) = {ah_host_run_json, ah_matcher_json,
                                                                         ah_install_json};
  for (size_t i = 0; i < 3; i++) {
    ah_buf *b = NULL;
    ah_error *e = NULL;
    CHECK(fs[i](NULL, 0, &b, &e) == AH_ERR_NULL_ARG && b == NULL && ah_error_code(e) == AH_ERR_NULL_ARG,
          "%zu: NULL request", i);
    ah_error_free(e);
    CHECK(fs[i](S("{}"), NULL, NULL) == AH_ERR_NULL_ARG, "%zu: NULL out", i);
    e = NULL;
    CHECK(fs[i](S(BAD_UTF8), &b, &e) == AH_ERR_INVALID_UTF8 && b == NULL && ah_error_code(e) == AH_ERR_INVALID_UTF8,
          "%zu: bad UTF-8", i);
    ah_error_free(e);
    CHECK(fs[i](S(""), &b, NULL) == AH_OK && b && contains(ah_buf_str(b).ptr, ah_buf_str(b).len, "\"error\"", 7),
          "%zu: empty request", i);
    ah_buf_free(b);
  }

  /* Install into a temporary project: dry run, install, idempotent, doctor, uninstall. */
  char dir[] = "/tmp/ah-c-install-XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  char req[2048], path[512];
  const char *manifest = "id = \\\"guard\\\"\\nprogram = \\\"/opt/guard\\\"\\n\\n[[hooks]]\\nid = \\\"pre\\\"\\n"
                         "kind = \\\"tool.pre\\\"\\nmatch = \\\"shell\\\"\\n";
  const char *steps[][3] = {{"install", "true", "true"},
                            {"install", "false", "true"},
                            {"install", "false", "false"},
                            {"uninstall", "false", "true"}};
  snprintf(path, sizeof path, "%s/.claude/settings.json", dir);
  for (size_t i = 0; i < 4; i++) {
    snprintf(req, sizeof req,
             "{\"action\":\"%s\",\"manifest\":\"%s\",\"agent\":\"claude-code\",\"scope\":\"project\","
             "\"project\":\"%s\",\"home\":\"%s\",\"env\":{},\"dry_run\":%s}",
             steps[i][0], manifest, dir, dir, steps[i][1]);
    j = json_call(ah_install_json, req, &st);
    const jval *r = json_get(j, "results");
    const jval *changed = r && r->n == 1 ? json_get(r->items[0], "changed") : NULL;
    CHECK(st == AH_OK && changed && changed->type == J_BOOL && changed->b == (strcmp(steps[i][2], "true") == 0),
          "install step %zu", i);
    if (i == 0) CHECK(access(path, F_OK) != 0, "dry run writes nothing");
    if (i == 1) {
      char *text = read_file(dir, ".claude/settings.json", NULL);
      CHECK(text && strstr(text, "/opt/guard") && strstr(text, "--provider=claude-code"), "installed hook");
      free(text);
      snprintf(req, sizeof req, "{\"action\":\"doctor\",\"project\":\"%s\",\"home\":\"%s\",\"env\":{}}", dir, dir);
      jval *d = json_call(ah_install_json, req, &st);
      const jval *agents = json_get(d, "agents");
      CHECK(st == AH_OK && agents && agents->type == J_ARR && agents->n > 0, "doctor");
      json_free(d);
    }
    json_free(j);
  }
  j = json_call(ah_install_json, "{\"action\":\"zap\"}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "invalid_argument") == 0, "install bad action");
  json_free(j);
  j = json_call(ah_install_json, "{\"action\":\"install\",\"manifest\":\"[[[\"}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "manifest") == 0, "install bad manifest");
  json_free(j);
  snprintf(req, sizeof req, "rm -rf '%s'", dir);
  CHECK(system(req) == 0, "cleanup");
}

/* ------------------------------------------------- test kit (simulate) */

static void test_simulate(void) {
  ah_status st;
  /* The behaviour reader: a Codex `ask` fails the run, and Codex goes ahead. */
  jval *j = json_call(ah_predict_json,
                      "{\"agent\":\"codex\",\"event\":\"PreToolUse\",\"answer\":{\"stdout\":"
                      "\"{\\\"hookSpecificOutput\\\":{\\\"hookEventName\\\":\\\"PreToolUse\\\",\\\"permissionDecision\\\":"
                      "\\\"ask\\\",\\\"permissionDecisionReason\\\":\\\"r\\\"}}\",\"exit\":0}}",
                      &st);
  const jval *w = json_get(j, "warnings");
  int ask_warned = 0;
  for (size_t i = 0; w && i < w->n; i++)
    if (json_str_is(json_get(w->items[i], "code"), "unsupported_decision")) ask_warned = 1;
  CHECK(st == AH_OK && json_str_is(json_get(j, "effect"), "tool_runs") && ask_warned, "predict: codex ask");
  json_free(j);
  /* Exit 2 + stderr blocks on Kimi; the model sees the reason. */
  j = json_call(ah_predict_json,
                "{\"agent\":\"kimi-code\",\"event\":\"PreToolUse\",\"answer\":{\"stderr\":\"no\",\"exit\":2}}", &st);
  const jval *seen = json_get(j, "model_sees");
  CHECK(st == AH_OK && json_str_is(json_get(j, "effect"), "tool_blocked") && seen && seen->type == J_STR &&
            strstr(seen->s, "Tool execution failed.</system>\nno"),
        "predict: kimi exit 2");
  json_free(j);
  /* The decision form: encode a deny for a Gemini payload, then read it. */
  j = json_call(ah_predict_json,
                "{\"agent\":\"gemini\",\"payload\":{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"hook_event_name\":"
                "\"BeforeTool\",\"timestamp\":\"t\",\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":"
                "\"rm -rf /\"}},\"decision\":{\"kind\":\"deny\",\"reason\":\"no\"}}",
                &st);
  CHECK(st == AH_OK && json_str_is(json_get(j, "effect"), "tool_blocked") && json_get(j, "answer") &&
            json_get(json_get(j, "answer"), "stdout"),
        "predict: decision form");
  json_free(j);
  j = json_call(ah_predict_json, "{\"agent\":\"vim\",\"event\":\"x\",\"answer\":{}}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "unknown_provider") == 0, "predict: unknown agent");
  json_free(j);

  /* The corpus ships in the library. */
  j = json_call(ah_fixture_corpus_json, "{\"agent\":\"cursor\",\"kind\":\"tool.pre\"}", &st);
  const jval *fx = json_get(j, "fixtures");
  CHECK(st == AH_OK && fx && fx->type == J_ARR && fx->n > 3 && json_str_is(json_get(fx->items[0], "agent"), "cursor"),
        "corpus: cursor tool.pre");
  json_free(j);

  /* Each agent's payload for a scenario. */
  j = json_call(ah_scenario_payloads_json,
                "{\"scenarios\":[{\"event\":\"tool.pre\",\"tool\":\"shell\",\"command\":\"ls\"}],\"cwd\":\"/tmp\"}",
                &st);
  const jval *cases = json_get(j, "cases");
  CHECK(st == AH_OK && cases && cases->n == 8 && json_get(cases->items[0], "payload"), "scenario payloads");
  json_free(j);

  /* Running a hook as each agent would: exit 2 + stderr blocks on Claude
   * Code, Codex, Cursor, Gemini and Kimi; Copilot drops the reason. */
  j = json_call(ah_simulate_json,
                "{\"command\":[\"sh\",\"-c\",\"cat >/dev/null; echo nope >&2; exit 2\"],\"scenarios\":[{\"event\":"
                "\"tool.pre\",\"command\":\"rm -rf build\"}],\"agents\":[\"claude-code\",\"codex\",\"copilot\"],"
                "\"cwd\":\"/tmp\",\"timeout_ms\":10000}",
                &st);
  const jval *o = json_get(j, "outcomes");
  int blocked = 0;
  for (size_t i = 0; o && i < o->n; i++)
    if (json_str_is(json_get(json_get(o->items[i], "prediction"), "effect"), "tool_blocked")) blocked++;
  CHECK(st == AH_OK && o && o->n == 3 && blocked == 3, "simulate: exit 2 blocks (%d)", blocked);
  json_free(j);
  j = json_call(ah_simulate_json, "{\"command\":[]}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "invalid_argument") == 0, "simulate: empty command");
  json_free(j);

  ah_status (*fs[])(const uint8_t *, size_t, ah_buf **, ah_error **) = {
      ah_predict_json, ah_simulate_json, ah_fixture_corpus_json, ah_scenario_payloads_json, ah_verdict_json};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
    ah_buf *b = NULL;
    ah_error *e = NULL;
    CHECK(fs[i](NULL, 0, &b, &e) == AH_ERR_NULL_ARG && b == NULL && ah_error_code(e) == AH_ERR_NULL_ARG,
          "kit %zu: NULL request", i);
    ah_error_free(e);
    CHECK(fs[i](S("{}"), NULL, NULL) == AH_ERR_NULL_ARG, "kit %zu: NULL out", i);
    CHECK(fs[i](S(BAD_UTF8), &b, NULL) == AH_ERR_INVALID_UTF8 && b == NULL, "kit %zu: bad UTF-8", i);
    CHECK(fs[i](S("[1"), &b, NULL) == AH_OK && b && contains(ah_buf_str(b).ptr, ah_buf_str(b).len, "\"error\"", 7),
          "kit %zu: bad request", i);
    ah_buf_free(b);
  }
}

/* One row of fixtures/simulate/: the reader's effect, warnings (as a
 * sorted set) and the substrings the model / user see. */
static void run_simulate_case(const char *cd, const char *name) {
  char *req = read_file(cd, "request.json", NULL);
  char *want_effect = read_file(cd, "effect", NULL);
  char *want_w = read_file(cd, "warnings", NULL);
  ah_status st;
  jval *j = req ? json_call(ah_predict_json, req, &st) : NULL;
  CHECK(j && st == AH_OK && !json_get(j, "error"), "%s: predict", name);
  if (j && want_effect) CHECK(json_str_is(json_get(j, "effect"), want_effect), "%s: effect", name);
  /* warnings: the codes, sorted, one a line, must equal the file */
  const jval *w = json_get(j, "warnings");
  char got[1024] = "";
  const char *codes[32];
  size_t n = 0;
  for (size_t i = 0; w && i < w->n && n < 32; i++) {
    const jval *c = json_get(w->items[i], "code");
    if (c && c->type == J_STR) codes[n++] = c->s;
  }
  for (size_t a = 0; a < n; a++)
    for (size_t b = a + 1; b < n; b++)
      if (strcmp(codes[b], codes[a]) < 0) {
        const char *t = codes[a];
        codes[a] = codes[b];
        codes[b] = t;
      }
  for (size_t i = 0; i < n; i++) {
    strncat(got, codes[i], sizeof got - strlen(got) - 1);
    strncat(got, "\n", sizeof got - strlen(got) - 1);
  }
  char *subset = read_file(cd, "warnings_subset", NULL);
  if (j && want_w && subset) {
    /* observed rows: every listed code is predicted */
    char *line = want_w;
    while (*line) {
      char *nl = strchr(line, '\n');
      if (!nl) break;
      *nl = '\0';
      char needle[256];
      snprintf(needle, sizeof needle, "%s\n", line);
      CHECK(strstr(got, needle) != NULL, "%s: warning %s predicted", name, line);
      line = nl + 1;
    }
  } else if (j && want_w) {
    CHECK(strcmp(got, want_w) == 0, "%s: warnings [%s] want [%s]", name, got, want_w);
  }
  free(subset);
  const char *seen[] = {"model_sees", "user_sees"};
  for (size_t k = 0; k < 2 && j; k++) {
    size_t len = 0;
    char *want = read_file(cd, seen[k], &len);
    if (!want) continue;
    const jval *g = json_get(j, seen[k]);
    if (len == 5 && want[0] == '\0')
      CHECK(g == NULL, "%s: %s must be absent", name, seen[k]);
    else
      CHECK(g && g->type == J_STR && strstr(g->s, want), "%s: %s", name, seen[k]);
    free(want);
  }
  json_free(j);
  free(req);
  free(want_effect);
  free(want_w);
}

/* ------------------------------------------- MCP transport, transcripts */

/* One fixtures/mcp/ case: the lookup's answer equals the expectation
 * (for an error expectation, the code). */
static void run_mcp_case(const char *cd, const char *name) {
  char *req = read_file(cd, "request.json", NULL);
  char *want_text = read_file(cd, "expect.json", NULL);
  jval *want = want_text ? json_parse(want_text, strlen(want_text)) : NULL;
  ah_status st = AH_ERR_PANIC;
  jval *got = req ? json_call(ah_mcp_resolve_json, req, &st) : NULL;
  CHECK(got && want && st == AH_OK, "%s: resolve", name);
  const jval *werr = want ? json_get(want, "error") : NULL;
  if (got && want) {
    if (werr) {
      const char *code = error_code(got);
      CHECK(code && json_str_is(json_get(werr, "code"), code), "%s: error code", name);
    } else {
      CHECK(json_equal(got, want), "%s: transport", name);
    }
  }
  json_free(got);
  json_free(want);
  free(req);
  free(want_text);
}

/* One fixtures/transcript/ case: every page, in order, equals the
 * expected entries. */
static void run_transcript_case(const char *cd, const char *name) {
  char *base = read_file(cd, "request.json", NULL);
  char *want_text = read_file(cd, "expect.json", NULL);
  jval *want = want_text ? json_parse(want_text, strlen(want_text)) : NULL;
  CHECK(base && want && want->type == J_ARR, "%s: case files", name);
  if (!base || !want || want->type != J_ARR) goto out;
  size_t at = 0, pages = 0;
  unsigned long long offset = 0, line = 1;
  for (; pages < 10000; pages++) {
    /* base is `{...}`: splice offset and line in before its closing brace */
    size_t bl = strlen(base);
    char *req = malloc(bl + 96);
    if (!req) break;
    memcpy(req, base, bl - 1);
    snprintf(req + bl - 1, 96, ",\"offset\":%llu,\"line\":%llu}", offset, line);
    ah_status st = AH_ERR_PANIC;
    jval *page = json_call(ah_transcript_page_json, req, &st);
    free(req);
    const jval *entries = page ? json_get(page, "entries") : NULL;
    CHECK(st == AH_OK && entries && entries->type == J_ARR, "%s: page %zu", name, pages);
    if (!entries || entries->type != J_ARR) {
      json_free(page);
      break;
    }
    for (size_t k = 0; k < entries->n; k++, at++)
      CHECK(at < want->n && json_equal(entries->items[k], want->items[at]), "%s: entry %zu", name, at);
    const jval *no = json_get(page, "next_offset"), *nl = json_get(page, "next_line"), *done = json_get(page, "done");
    bool finished = done && done->type == J_BOOL && done->b;
    if (no && no->type == J_NUM) offset = strtoull(no->s, NULL, 10);
    if (nl && nl->type == J_NUM) line = strtoull(nl->s, NULL, 10);
    json_free(page);
    if (finished) break;
  }
  CHECK(at == want->n, "%s: %zu entries read, %zu expected", name, at, want->n);
out:
  json_free(want);
  free(base);
  free(want_text);
}

static void test_context_api(void) {
  ah_status st;
  jval *j = json_call(ah_transcript_page_json, "{\"path\":\"/nonexistent/agenthooks.jsonl\"}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "io") == 0, "transcript: missing file is io");
  json_free(j);
  j = json_call(ah_mcp_resolve_json, "{\"provider\":\"vim\",\"server\":\"x\"}", &st);
  CHECK(st == AH_OK && error_code(j) && strcmp(error_code(j), "invalid_argument") == 0, "mcp: bad provider");
  json_free(j);
  ah_status (*fs[])(const uint8_t *, size_t, ah_buf **, ah_error **) = {ah_mcp_resolve_json, ah_transcript_page_json};
  for (size_t i = 0; i < 2; i++) {
    ah_buf *b = NULL;
    ah_error *e = NULL;
    CHECK(fs[i](NULL, 0, &b, &e) == AH_ERR_NULL_ARG && b == NULL && ah_error_code(e) == AH_ERR_NULL_ARG,
          "context %zu: NULL request", i);
    ah_error_free(e);
    CHECK(fs[i](S(BAD_UTF8), &b, NULL) == AH_ERR_INVALID_UTF8 && b == NULL, "context %zu: bad UTF-8", i);
  }
}

/* One case of fixtures/simulate/verdicts: the core's verdict, summed up as
 * "holds=.. checked=.. nothing=..\n" and "<index> <agent>\n" per offender. */
static void run_verdict_case(const char *cd, const char *name) {
  char *req = read_file(cd, "request.json", NULL);
  char *want = read_file(cd, "expect", NULL);
  ah_status st;
  jval *j = req ? json_call(ah_verdict_json, req, &st) : NULL;
  CHECK(j && st == AH_OK && !json_get(j, "error"), "%s: verdict", name);
  const jval *holds = json_get(j, "holds");
  const jval *checked = json_get(j, "checked");
  const jval *off = json_get(j, "offending");
  char got[2048];
  int n = snprintf(got, sizeof got, "holds=%d checked=%s nothing=%d\n", holds && holds->type == J_BOOL && holds->b,
                   checked && checked->type == J_NUM ? checked->s : "?", json_get(j, "nothing_checked") != NULL);
  for (size_t i = 0; off && off->type == J_ARR && i < off->n && n > 0 && (size_t)n < sizeof got; i++) {
    const jval *idx = json_get(off->items[i], "index");
    const jval *agent = json_get(off->items[i], "agent");
    const jval *reason = json_get(off->items[i], "reason");
    CHECK(reason && reason->type == J_STR && reason->slen > 0, "%s: offending %zu has a reason", name, i);
    n += snprintf(got + n, sizeof got - (size_t)n, "%s %s\n", idx && idx->type == J_NUM ? idx->s : "?",
                  agent && agent->type == J_STR ? agent->s : "?");
  }
  if (j && want) CHECK(strcmp(got, want) == 0, "%s: verdict [%s] want [%s]", name, got, want);
  json_free(j);
  free(req);
  free(want);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <flattened fixtures dir> <fixtures dir>\n", argv[0]);
    return 2;
  }
  test_versions();
  test_errors();
  test_decode();
  test_threads();
  test_respond();
  test_merge();
  test_dispatch();
  test_info();
  test_runtime();
  test_serve();
  test_bridge();
  test_host();
  test_simulate();
  test_context_api();
  int matched = walk(argv[1], "provider", run_provider_case) + walk(argv[1], "router", run_router_case) +
                walk(argv[1], "runtime", run_runtime_case) + walk(argv[1], "simulate", run_simulate_case) +
                walk(argv[1], "mcp", run_mcp_case) + walk(argv[1], "transcript", run_transcript_case) +
                walk(argv[1], "verdicts", run_verdict_case);
  walk_dispatch(argv[1], argv[2]);
  matched += walk_serve(argv[1], argv[2], &checks, &failures);
  CHECK(matched > 0, "no fixtures matched AH_FIXTURE");
  test_stdout_guard();
  fprintf(stderr, "abi_test: %d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
