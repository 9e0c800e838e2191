/* See json.h. */
#include "json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *p;
  const char *end;
  int depth;
} reader;

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) abort();
  return p;
}

static void skip_ws(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static jval *parse_value(reader *r);

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool read_hex4(reader *r, uint32_t *out) {
  if (r->end - r->p < 4) return false;
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(r->p[i]);
    if (h < 0) return false;
    v = v * 16 + (uint32_t)h;
  }
  r->p += 4;
  *out = v;
  return true;
}

static void put_utf8(char *buf, size_t *n, uint32_t cp) {
  if (cp < 0x80) {
    buf[(*n)++] = (char)cp;
  } else if (cp < 0x800) {
    buf[(*n)++] = (char)(0xC0 | (cp >> 6));
    buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    buf[(*n)++] = (char)(0xE0 | (cp >> 12));
    buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
  } else {
    buf[(*n)++] = (char)(0xF0 | (cp >> 18));
    buf[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
    buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
  }
}

/* Reads a string literal at r->p (which is at the opening quote). */
static bool parse_string(reader *r, char **out, size_t *outlen) {
  r->p++;
  /* The decoded form is never longer than the literal. */
  const char *start = r->p;
  size_t cap = 0;
  while (start + cap < r->end && start[cap] != '"') cap += (start[cap] == '\\') ? 2 : 1;
  char *buf = xcalloc(cap + 1, 1);
  size_t n = 0;
  while (r->p < r->end && *r->p != '"') {
    unsigned char c = (unsigned char)*r->p;
    if (c < 0x20) goto fail;
    if (c != '\\') {
      buf[n++] = (char)c;
      r->p++;
      continue;
    }
    r->p++;
    if (r->p >= r->end) goto fail;
    char e = *r->p++;
    switch (e) {
      case '"': buf[n++] = '"'; break;
      case '\\': buf[n++] = '\\'; break;
      case '/': buf[n++] = '/'; break;
      case 'b': buf[n++] = '\b'; break;
      case 'f': buf[n++] = '\f'; break;
      case 'n': buf[n++] = '\n'; break;
      case 'r': buf[n++] = '\r'; break;
      case 't': buf[n++] = '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!read_hex4(r, &cp)) goto fail;
        if (cp >= 0xD800 && cp < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
          uint32_t lo;
          r->p += 2;
          if (!read_hex4(r, &lo)) goto fail;
          if (lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else {
            put_utf8(buf, &n, 0xFFFD);
            cp = lo;
          }
        }
        put_utf8(buf, &n, cp);
        break;
      }
      default: goto fail;
    }
  }
  if (r->p >= r->end) goto fail;
  r->p++;
  *out = buf;
  *outlen = n;
  return true;
fail:
  free(buf);
  return false;
}

static jval *parse_value(reader *r) {
  skip_ws(r);
  if (r->p >= r->end || r->depth > 512) return NULL;
  jval *v = xcalloc(1, sizeof *v);
  char c = *r->p;
  if (c == '{' || c == '[') {
    bool obj = c == '{';
    v->type = obj ? J_OBJ : J_ARR;
    r->p++;
    r->depth++;
    size_t cap = 4;
    v->items = xcalloc(cap, sizeof *v->items);
    if (obj) {
      v->keys = xcalloc(cap, sizeof *v->keys);
      v->klens = xcalloc(cap, sizeof *v->klens);
    }
    skip_ws(r);
    if (r->p < r->end && *r->p == (obj ? '}' : ']')) {
      r->p++;
      r->depth--;
      return v;
    }
    for (;;) {
      if (v->n == cap) {
        cap *= 2;
        v->items = realloc(v->items, cap * sizeof *v->items);
        if (obj) {
          v->keys = realloc(v->keys, cap * sizeof *v->keys);
          v->klens = realloc(v->klens, cap * sizeof *v->klens);
        }
        if (!v->items || (obj && (!v->keys || !v->klens))) abort();
      }
      if (obj) {
        skip_ws(r);
        if (r->p >= r->end || *r->p != '"') goto fail;
        if (!parse_string(r, &v->keys[v->n], &v->klens[v->n])) goto fail;
        skip_ws(r);
        if (r->p >= r->end || *r->p != ':') {
          free(v->keys[v->n]);
          goto fail;
        }
        r->p++;
      }
      jval *item = parse_value(r);
      if (!item) {
        if (obj) free(v->keys[v->n]);
        goto fail;
      }
      v->items[v->n++] = item;
      skip_ws(r);
      if (r->p < r->end && *r->p == ',') {
        r->p++;
        continue;
      }
      if (r->p < r->end && *r->p == (obj ? '}' : ']')) {
        r->p++;
        r->depth--;
        return v;
      }
      goto fail;
    }
  }
  if (c == '"') {
    v->type = J_STR;
    if (!parse_string(r, &v->s, &v->slen)) goto fail;
    return v;
  }
  if (r->end - r->p >= 4 && memcmp(r->p, "true", 4) == 0) {
    v->type = J_BOOL;
    v->b = true;
    r->p += 4;
    return v;
  }
  if (r->end - r->p >= 5 && memcmp(r->p, "false", 5) == 0) {
    v->type = J_BOOL;
    r->p += 5;
    return v;
  }
  if (r->end - r->p >= 4 && memcmp(r->p, "null", 4) == 0) {
    v->type = J_NULL;
    r->p += 4;
    return v;
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    const char *s = r->p;
    while (r->p < r->end && strchr("+-0123456789.eE", *r->p)) r->p++;
    v->type = J_NUM;
    v->slen = (size_t)(r->p - s);
    v->s = xcalloc(v->slen + 1, 1);
    memcpy(v->s, s, v->slen);
    return v;
  }
fail:
  json_free(v);
  return NULL;
}

jval *json_parse(const char *text, size_t len) {
  reader r = {text, text + len, 0};
  jval *v = parse_value(&r);
  if (!v) return NULL;
  skip_ws(&r);
  if (r.p != r.end) {
    json_free(v);
    return NULL;
  }
  return v;
}

void json_free(jval *v) {
  if (!v) return;
  for (size_t i = 0; i < v->n; i++) {
    json_free(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->klens);
  free(v->s);
  free(v);
}

static bool is_integer_literal(const jval *v) {
  return strpbrk(v->s, ".eE") == NULL;
}

static bool num_equal(const jval *a, const jval *b) {
  if (is_integer_literal(a) && is_integer_literal(b)) return a->slen == b->slen && memcmp(a->s, b->s, a->slen) == 0;
  return strtod(a->s, NULL) == strtod(b->s, NULL);
}

static const jval *get_n(const jval *obj, const char *key, size_t klen) {
  if (!obj || obj->type != J_OBJ) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (obj->klens[i] == klen && memcmp(obj->keys[i], key, klen) == 0) return obj->items[i];
  return NULL;
}

bool json_equal(const jval *a, const jval *b) {
  if (!a || !b || a->type != b->type) return false;
  switch (a->type) {
    case J_NULL: return true;
    case J_BOOL: return a->b == b->b;
    case J_NUM: return num_equal(a, b);
    case J_STR: return a->slen == b->slen && memcmp(a->s, b->s, a->slen) == 0;
    case J_ARR:
      if (a->n != b->n) return false;
      for (size_t i = 0; i < a->n; i++)
        if (!json_equal(a->items[i], b->items[i])) return false;
      return true;
    case J_OBJ:
      if (a->n != b->n) return false;
      for (size_t i = 0; i < a->n; i++) {
        const jval *other = get_n(b, a->keys[i], a->klens[i]);
        if (!other || !json_equal(a->items[i], other)) return false;
      }
      return true;
  }
  return false;
}

const jval *json_get(const jval *obj, const char *key) {
  return get_n(obj, key, strlen(key));
}

void json_remove(jval *obj, const char *key) {
  if (!obj || obj->type != J_OBJ) return;
  size_t klen = strlen(key);
  for (size_t i = 0; i < obj->n; i++) {
    if (obj->klens[i] == klen && memcmp(obj->keys[i], key, klen) == 0) {
      json_free(obj->items[i]);
      free(obj->keys[i]);
      for (size_t j = i + 1; j < obj->n; j++) {
        obj->items[j - 1] = obj->items[j];
        obj->keys[j - 1] = obj->keys[j];
        obj->klens[j - 1] = obj->klens[j];
      }
      obj->n--;
      return;
    }
  }
}

bool json_str_is(const jval *v, const char *s) {
  return v && v->type == J_STR && v->slen == strlen(s) && memcmp(v->s, s, v->slen) == 0;
}
