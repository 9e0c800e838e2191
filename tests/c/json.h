/* A minimal JSON reader for the C ABI tests: parse into a tree, compare
 * two trees structurally (object key order ignored). Not a general
 * library: inputs are trusted test data and library output. */
#ifndef AH_TEST_JSON_H
#define AH_TEST_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jval {
  jtype type;
  bool b;
  char *s;      /* J_STR: decoded bytes; J_NUM: the literal text */
  size_t slen;  /* J_STR / J_NUM: length of s */
  struct jval **items; /* J_ARR: elements; J_OBJ: values */
  char **keys;         /* J_OBJ: decoded keys */
  size_t *klens;
  size_t n;
} jval;

/* Parses `len` bytes; NULL on a syntax error (or trailing garbage). */
jval *json_parse(const char *text, size_t len);
void json_free(jval *v);
/* Structural equality; numbers compare by value (integers exactly). */
bool json_equal(const jval *a, const jval *b);
/* The member `key` of an object, or NULL. */
const jval *json_get(const jval *obj, const char *key);
/* Removes member `key` from an object (freeing it); no-op if absent. */
void json_remove(jval *obj, const char *key);
/* Whether a string value equals a C string. */
bool json_str_is(const jval *v, const char *s);

#endif
