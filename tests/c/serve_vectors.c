/* The shared serve vectors (fixtures/serve/, flattened by
 * flatten_fixtures.py) served through ah_bridge_* from C, as a C program
 * serving `<program> agenthooks serve` does (tests/c/README.md): a reader
 * feeds the lines while the bridge wants input, every job runs on its own
 * pthread with the vector router's handler (fixtures/serve/README.md) on a
 * second pthread it abandons at the job's deadline, and the frames are
 * compared with the vector's as the Go, Python and Rust runners do: parsed,
 * as a multiset, the hello reply first, `in_order` seqs in that order.
 * Every thread is joined and every object freed before the next vector. */
#define _POSIX_C_SOURCE 200809L

#include "serve_vectors.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agenthooks.h"
#include "json.h"

static int *checks_p, *failures_p;

#define SCHECK(cond, ...)                                   \
  do {                                                      \
    (*checks_p)++;                                          \
    if (!(cond)) {                                          \
      (*failures_p)++;                                      \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                         \
      fprintf(stderr, "\n");                                \
    }                                                       \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "serve vectors: out of memory\n");
    abort();
  }
  return p;
}

/* Reads <dir>/<name> whole (NUL-terminated); NULL when absent. */
static char *slurp_file(const char *dir, const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      char *nb = realloc(buf, cap);
      if (!nb) abort();
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    if (got == 0) break;
    n += got;
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

/* ------------------------------------------------------------ the server */

typedef struct {
  const ah_bridge *b;
  pthread_mutex_t mu;
  /* Signalled after every ah_bridge_finish*: room to read, maybe idle. */
  pthread_cond_t cv;
  /* The frames written so far (guarded by mu), in write order. */
  char *out;
  size_t out_len, out_cap;
  /* Every thread started (guarded by mu); joined in order at the end. */
  pthread_t *threads;
  size_t nthreads, cap_threads;
  int thread_errors;
} server;

/* One job's handler run, shared by the job's thread and the handler's. */
typedef struct {
  server *s;
  ah_bridge_job *job;
  uint64_t id;
  pthread_cond_t done_cv; /* waits on s->mu */
  bool done, abandoned;
  /* Set once the timeout is reported: the handler's thread reports its
   * end only after that (ah_bridge_abandoned_done is a no-op before). */
  bool timeout_reported;
  /* The handler's outcome: 0 no decision, 1 deny, 2 handler error. */
  int outcome;
} run;

static void append_out(server *s, ah_str t) {
  if (!t.ptr || t.len == 0) return;
  pthread_mutex_lock(&s->mu);
  if (s->out_len + t.len + 1 > s->out_cap) {
    size_t cap = s->out_cap ? s->out_cap : 1024;
    while (s->out_len + t.len + 1 > cap) cap *= 2;
    char *nb = realloc(s->out, cap);
    if (!nb) abort();
    s->out = nb;
    s->out_cap = cap;
  }
  memcpy(s->out + s->out_len, t.ptr, t.len);
  s->out_len += t.len;
  s->out[s->out_len] = '\0';
  pthread_mutex_unlock(&s->mu);
}

/* Starts a joinable thread and records it (before the caller goes on, so
 * a thread is always recorded before the one that started it ends). */
static void spawn(server *s, void *(*fn)(void *), void *arg) {
  pthread_t t;
  int rc = pthread_create(&t, NULL, fn, arg);
  pthread_mutex_lock(&s->mu);
  if (rc != 0) {
    s->thread_errors++;
  } else {
    if (s->nthreads == s->cap_threads) {
      s->cap_threads = s->cap_threads ? s->cap_threads * 2 : 16;
      pthread_t *nt = realloc(s->threads, s->cap_threads * sizeof *nt);
      if (!nt) abort();
      s->threads = nt;
    }
    s->threads[s->nthreads++] = t;
  }
  pthread_mutex_unlock(&s->mu);
}

static void *job_thread(void *arg);

/* Writes an output's frames, then starts its jobs (in that order, as the
 * Go driver does: a session's next reply cannot overtake this one), then
 * frees it. The output's stderr (diagnostics) is not compared. */
static void emit(server *s, ah_bridge_output *o) {
  append_out(s, ah_bridge_output_frames(o));
  size_t n = ah_bridge_output_job_count(o);
  for (size_t i = 0; i < n; i++) {
    ah_bridge_job *job = NULL;
    if (ah_bridge_output_take_job(o, i, &job, NULL) != AH_OK || !job) {
      pthread_mutex_lock(&s->mu);
      s->thread_errors++;
      pthread_mutex_unlock(&s->mu);
      continue;
    }
    run *r = xmalloc(sizeof *r);
    memset(r, 0, sizeof *r);
    r->s = s;
    r->job = job;
    r->id = ah_bridge_job_id(job);
    pthread_cond_init(&r->done_cv, NULL);
    spawn(s, job_thread, r);
  }
  ah_bridge_output_free(o);
}

/* After ah_bridge_finish*: wake the reader, write, start the next jobs. */
static void finished(server *s, ah_status st, ah_bridge_output *o) {
  pthread_mutex_lock(&s->mu);
  pthread_cond_broadcast(&s->cv);
  if (st != AH_OK) s->thread_errors++;
  pthread_mutex_unlock(&s->mu);
  if (st == AH_OK) emit(s, o);
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* The vector router: one handler on tool.pre, by the shell command. */
static int vector_handler(const ah_event *ev) {
  ah_str kind = ah_event_kind(ev);
  if (!kind.ptr || kind.len != 8 || memcmp(kind.ptr, "tool.pre", 8) != 0) return 0;
  ah_str js = ah_event_json(ev);
  jval *j = js.ptr ? json_parse(js.ptr, js.len) : NULL;
  const jval *tool = j ? json_get(j, "tool") : NULL;
  const jval *cmd = tool ? json_get(tool, "command") : NULL;
  int outcome = 0;
  if (cmd && cmd->type == J_STR) {
    const char *c = cmd->s;
    size_t n = cmd->slen;
    if (strstr(c, "rm -rf") != NULL && strlen(c) == n) {
      outcome = 1;
    } else if (n == 4 && memcmp(c, "fail", 4) == 0) {
      outcome = 2;
    } else if (n == 4 && memcmp(c, "slow", 4) == 0) {
      sleep_ms(3000);
    } else if (n > 6 && memcmp(c, "sleep ", 6) == 0) {
      char *end = NULL;
      long ms = strtol(c + 6, &end, 10);
      if (end == c + n && ms >= 0 && ms <= 60000) sleep_ms(ms);
    }
  }
  json_free(j);
  return outcome;
}

/* The handler's thread: runs, then either hands the outcome to the job's
 * thread or, abandoned at the deadline, reports its end and frees the job
 * (the job's thread gave it up). */
static void *handler_thread(void *arg) {
  run *r = arg;
  int outcome = vector_handler(ah_bridge_job_event(r->job));
  server *s = r->s;
  pthread_mutex_lock(&s->mu);
  r->outcome = outcome;
  r->done = true;
  bool abandoned = r->abandoned;
  pthread_cond_signal(&r->done_cv);
  while (abandoned && !r->timeout_reported) pthread_cond_wait(&r->done_cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
  if (abandoned) {
    ah_bridge_abandoned_done(s->b, r->id);
    ah_bridge_job_free(r->job);
    pthread_cond_destroy(&r->done_cv);
    free(r);
  }
  return NULL;
}

/* One job: the handler within the deadline, then the outcome to the bridge. */
static void *job_thread(void *arg) {
  run *r = arg;
  server *s = r->s;
  uint64_t id = r->id; /* read now: once abandoned, r belongs to the handler's thread */
  uint64_t deadline = ah_bridge_job_deadline_ms(r->job);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += (time_t)(deadline / 1000);
  until.tv_nsec += (long)(deadline % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  spawn(s, handler_thread, r);
  pthread_mutex_lock(&s->mu);
  int rc = 0;
  while (!r->done && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&r->done_cv, &s->mu, &until);
  bool done = r->done;
  if (!done) r->abandoned = true; /* from now on the handler's thread owns r */
  int outcome = r->outcome;
  pthread_mutex_unlock(&s->mu);
  ah_bridge_output *o = NULL;
  ah_status st;
  if (!done) {
    st = ah_bridge_finish_error(s->b, id, AH_ERR_HANDLER_TIMEOUT, NULL, 0, &o, NULL);
  } else if (outcome == 1) {
    const char *d = "{\"kind\":\"deny\",\"reason\":\"destructive command\"}";
    st = ah_bridge_finish(s->b, id, (const uint8_t *)d, strlen(d), &o, NULL);
  } else if (outcome == 2) {
    st = ah_bridge_finish_error(s->b, id, AH_ERR_HANDLER_ERROR, (const uint8_t *)"boom", 4, &o, NULL);
  } else {
    st = ah_bridge_finish(s->b, id, NULL, 0, &o, NULL);
  }
  if (done) {
    ah_bridge_job_free(r->job);
    pthread_cond_destroy(&r->done_cv);
    free(r);
  } else {
    pthread_mutex_lock(&s->mu);
    r->timeout_reported = true; /* r is the handler thread's once unlocked */
    pthread_cond_signal(&r->done_cv);
    pthread_mutex_unlock(&s->mu);
  }
  finished(s, st, o);
  return NULL;
}

/* Serves `input` (lines ending in "\n") as the reader of a serve loop does;
 * returns the frames written (owned) or NULL when the bridge is not made. */
static char *serve_input(const char *name, const ah_run_args *args, const char *input, size_t len, size_t *out_len) {
  ah_bridge *b = NULL;
  ah_error *err = NULL;
  ah_status st = ah_bridge_new(args, NULL, 0, &b, &err);
  SCHECK(st == AH_OK && b, "%s: ah_bridge_new %s", name, ah_status_id(st));
  ah_error_free(err);
  if (!b) return NULL;
  server s;
  memset(&s, 0, sizeof s);
  s.b = b;
  pthread_mutex_init(&s.mu, NULL);
  pthread_cond_init(&s.cv, NULL);
  size_t max = ah_bridge_max_line(b), head = ah_bridge_head_bytes();
  for (size_t pos = 0; pos < len;) {
    pthread_mutex_lock(&s.mu);
    while (!ah_bridge_wants_input(b)) pthread_cond_wait(&s.cv, &s.mu);
    pthread_mutex_unlock(&s.mu);
    const char *nl = memchr(input + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (input + pos)) : len - pos;
    const uint8_t *line = (const uint8_t *)input + pos;
    ah_bridge_output *o = NULL;
    if (n > max) {
      /* Over the limit: its head and its length (the \r counts, as a reader sees it). */
      st = ah_bridge_feed(b, line, n < head ? n : head, n, &o, NULL);
    } else {
      size_t m = (n > 0 && line[n - 1] == '\r') ? n - 1 : n;
      st = ah_bridge_feed(b, line, m, 0, &o, NULL);
    }
    SCHECK(st == AH_OK && o, "%s: ah_bridge_feed %s", name, ah_status_id(st));
    if (st == AH_OK) emit(&s, o);
    pos += n + (nl ? 1 : 0);
  }
  /* End of input: wait until idle, then for every thread (the last
   * replies are written by their jobs' threads; abandoned handlers end
   * after their sleep). */
  pthread_mutex_lock(&s.mu);
  while (!ah_bridge_idle(b)) pthread_cond_wait(&s.cv, &s.mu);
  for (size_t i = 0; i < s.nthreads; i++) {
    pthread_t t = s.threads[i];
    pthread_mutex_unlock(&s.mu);
    pthread_join(t, NULL);
    pthread_mutex_lock(&s.mu);
  }
  pthread_mutex_unlock(&s.mu);
  SCHECK(s.thread_errors == 0, "%s: %d thread or bridge errors", name, s.thread_errors);
  ah_bridge_free(b);
  free(s.threads);
  pthread_cond_destroy(&s.cv);
  pthread_mutex_destroy(&s.mu);
  *out_len = s.out_len;
  if (!s.out) s.out = calloc(1, 1);
  return s.out;
}

/* ------------------------------------------------------------ comparing */

typedef struct {
  jval **v;
  size_t n;
} frames;

/* Parses one JSON value a line; false (with a failure) on a line that is not JSON. */
static bool parse_lines(const char *name, const char *what, const char *text, size_t len, frames *f) {
  f->v = NULL;
  f->n = 0;
  size_t cap = 0;
  bool ok = true;
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    jval *v = json_parse(text + pos, n);
    SCHECK(v != NULL, "%s: %s line is not JSON: %.*s", name, what, (int)(n > 200 ? 200 : n), text + pos);
    SCHECK(nl != NULL, "%s: %s: the last line has no newline", name, what);
    if (!v) ok = false;
    if (v) {
      if (f->n == cap) {
        cap = cap ? cap * 2 : 16;
        jval **nv = realloc(f->v, cap * sizeof *nv);
        if (!nv) abort();
        f->v = nv;
      }
      f->v[f->n++] = v;
    }
    pos += n + (nl ? 1 : 0);
  }
  return ok;
}

static void frames_free(frames *f) {
  for (size_t i = 0; i < f->n; i++) json_free(f->v[i]);
  free(f->v);
}

/* "$VERSION" in an expected hello reply is the library's version. */
static void expand_version(jval *frame) {
  jval *hello = (jval *)json_get(frame, "hello");
  jval *ver = hello ? (jval *)json_get(hello, "version") : NULL;
  if (!ver || !json_str_is(ver, "$VERSION")) return;
  const char *v = ah_version();
  size_t n = strlen(v);
  free(ver->s);
  ver->s = xmalloc(n + 1);
  memcpy(ver->s, v, n + 1);
  ver->slen = n;
}

/* Position of the first frame whose seq equals `seq`; -1 when none. */
static long seq_pos(const frames *got, const jval *seq) {
  for (size_t i = 0; i < got->n; i++) {
    const jval *s = json_get(got->v[i], "seq");
    if (s && json_equal(s, seq)) return (long)i;
  }
  return -1;
}

static void run_serve_case(const char *cd, const char *name) {
  size_t argc_len = 0, argv_len = 0, in_len = 0, want_len = 0, order_len = 0;
  char *argc_s = slurp_file(cd, "argc", &argc_len);
  char *argv_raw = slurp_file(cd, "argv", &argv_len);
  char *input = slurp_file(cd, "input", &in_len);
  char *want_text = slurp_file(cd, "output", &want_len);
  char *order_text = slurp_file(cd, "in_order", &order_len);
  SCHECK(argc_s && argv_raw && input && want_text && order_text, "%s: flattened files missing in %s", name, cd);
  if (!(argc_s && argv_raw && input && want_text && order_text)) goto out;
  size_t argc = (size_t)strtoul(argc_s, NULL, 10);
  const char **argv = xmalloc((argc + 1) * sizeof *argv);
  size_t k = 0;
  for (size_t p = 0; p <= argv_len && k < argc; k++) {
    argv[k] = argv_raw + p;
    p += strlen(argv_raw + p) + 1;
  }
  SCHECK(k == argc, "%s: argv has %zu of %zu arguments", name, k, argc);
  ah_run_args *args = NULL;
  ah_response *answer = NULL;
  ah_status st = ah_run_start(argv, argc, &args, &answer, NULL);
  SCHECK(st == AH_OK && args && !answer, "%s: ah_run_start %s (serve arguments expected)", name, ah_status_id(st));
  ah_response_free(answer);
  free(argv);
  if (!args) goto out;
  ah_str cmd = ah_run_args_command(args);
  SCHECK(cmd.ptr && cmd.len == 5 && memcmp(cmd.ptr, "serve", 5) == 0, "%s: the command is serve", name);

  size_t got_len = 0;
  char *got_text = serve_input(name, args, input, in_len, &got_len);
  ah_run_args_free(args);
  if (!got_text) goto out;
  frames got, want, order;
  bool ok = parse_lines(name, "reply", got_text, got_len, &got);
  ok = parse_lines(name, "expected", want_text, want_len, &want) && ok;
  ok = parse_lines(name, "in_order", order_text, order_len, &order) && ok;
  for (size_t i = 0; i < want.n; i++) expand_version(want.v[i]);
  /* A multiset: every expected frame matches one reply, none left over. */
  SCHECK(got.n == want.n, "%s: %zu reply frames, want %zu", name, got.n, want.n);
  bool *used = calloc(got.n + 1, 1);
  for (size_t i = 0; i < want.n; i++) {
    bool found = false;
    for (size_t j = 0; j < got.n && !found; j++) {
      if (!used[j] && json_equal(got.v[j], want.v[i])) found = used[j] = true;
    }
    if (!found) {
      char *w = strndup(want_text, want_len);
      SCHECK(found, "%s: no reply matches expected frame %zu\n got:\n%s want:\n%s", name, i, got_text, w);
      free(w);
      break;
    }
  }
  free(used);
  if (want.n > 0 && json_get(want.v[0], "hello")) {
    SCHECK(got.n > 0 && json_equal(got.v[0], want.v[0]), "%s: the hello reply must come first", name);
  }
  for (size_t i = 0; i < order.n; i++) {
    const jval *seqs = order.v[i];
    SCHECK(seqs->type == J_ARR && seqs->n >= 2, "%s: in_order %zu is not a list of seqs", name, i);
    if (seqs->type != J_ARR) continue;
    long last = -1;
    for (size_t j = 0; j < seqs->n; j++) {
      long pos = seq_pos(&got, seqs->items[j]);
      if (pos <= last) {
        SCHECK(false, "%s: in_order %zu: seq %zu out of order (position %ld after %ld)\n%s", name, i, j, pos, last,
               got_text);
        break;
      }
      last = pos;
    }
  }
  (void)ok;
  frames_free(&got);
  frames_free(&want);
  frames_free(&order);
  free(got_text);
out:
  free(argc_s);
  free(argv_raw);
  free(input);
  free(want_text);
  free(order_text);
}

int walk_serve(const char *root, const char *src, int *checks, int *failures) {
  checks_p = checks;
  failures_p = failures;
  char dir[2048], sdir[2048];
  snprintf(dir, sizeof dir, "%s/serve", root);
  snprintf(sdir, sizeof sdir, "%s/serve", src);
  long files = 0;
  DIR *dp = opendir(sdir);
  SCHECK(dp != NULL, "serve: cannot open %s", sdir);
  for (struct dirent *de; dp && (de = readdir(dp)) != NULL;) {
    size_t l = strlen(de->d_name);
    if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0) files++;
  }
  if (dp) closedir(dp);
  char *cs = slurp_file(dir, "count", NULL);
  long count = cs ? strtol(cs, NULL, 10) : -1;
  free(cs);
  const char *filter = getenv("AH_FIXTURE");
  int ran = 0, skipped = 0, total = 0;
  for (long i = 0; i < count; i++) {
    char cd[4096];
    snprintf(cd, sizeof cd, "%s/%ld", dir, i);
    char *name = slurp_file(cd, "name", NULL);
    SCHECK(name != NULL, "serve: vector %ld has no name", i);
    if (!name) continue;
    total++;
    if (filter && *filter && !strstr(name, filter)) {
      skipped++; /* filtered out by AH_FIXTURE, never by the runner */
    } else {
      run_serve_case(cd, name);
      ran++;
    }
    free(name);
  }
  fprintf(stderr, "serve vectors (C ABI): ran %d, skipped %d, total %d, files %ld\n", ran, skipped, total, files);
  SCHECK(files > 0 && total == files && count == files, "serve: %d vectors flattened of %ld files in %s", total, files,
         sdir);
  SCHECK(ran + skipped == total, "serve: ran + skipped == total");
  SCHECK(ran == total || (filter && *filter), "serve: ran %d of %d", ran, total);
  return ran;
}
