#include <crypt.h>
#include <stdlib.h>
#include <string.h>

/// A yescrypt hash (`$y$…`) of `password` with a fresh random salt from libxcrypt, into `out` (at least
/// CRYPT_OUTPUT_SIZE bytes); 0 when done, -1 when libxcrypt refused. struct crypt_data is 32 KiB: on the heap.
static inline int kiosk_crypt_hash(const char *password, char *out, size_t size) {
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$y$", 0, NULL, 0, salt, (int)sizeof salt)) return -1;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (!data) return -1;
    const char *hash = crypt_r(password, salt, data);
    int rc = -1;
    if (hash && hash[0] != '*' && strlen(hash) < size) { strcpy(out, hash); rc = 0; }
    explicit_bzero(data, sizeof *data);
    free(data);
    return rc;
}

/// 1 when `password` hashes to `hash` (any method libxcrypt knows, the comparison in constant time), else 0.
static inline int kiosk_crypt_verify(const char *password, const char *hash) {
    struct crypt_data *data = calloc(1, sizeof *data);
    if (!data) return 0;
    const char *again = crypt_r(password, hash, data);
    int same = 0;
    if (again && again[0] != '*') {
        size_t n = strlen(hash);
        if (strlen(again) == n) {
            unsigned char diff = 0;
            for (size_t i = 0; i < n; i++) diff |= (unsigned char)again[i] ^ (unsigned char)hash[i];
            same = diff == 0;
        }
    }
    explicit_bzero(data, sizeof *data);
    free(data);
    return same;
}
