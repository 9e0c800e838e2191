/* The shared serve vectors through ah_bridge_* (serve_vectors.c). */
#ifndef AH_TEST_SERVE_VECTORS_H
#define AH_TEST_SERVE_VECTORS_H

/* Serves every flattened vector under <root>/serve, counting the files in
 * <src>/serve (fixtures/serve) so a broken path cannot pass with none;
 * adds to the caller's check and failure counters. Returns how many ran. */
int walk_serve(const char *root, const char *src, int *checks, int *failures);

#endif
