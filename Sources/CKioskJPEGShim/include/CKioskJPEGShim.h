#ifndef CKIOSK_JPEG_SHIM_H
#define CKIOSK_JPEG_SHIM_H

#include <stddef.h>

/* libjpeg reports a fatal error by calling error_exit, which must not return: the usual handler longjmps back to a
 * setjmp in the caller. Swift cannot setjmp, so every libjpeg call that can fail runs here, inside a setjmp, and
 * comes back as a status (0: done, -1: refused, with the message in kiosk_jpeg_message). Warnings about corrupt
 * but decodable data are counted, not printed; a premature end of the file is an error. Nothing is written to
 * stderr. After a -1, only kiosk_jpeg_message and kiosk_jpeg_destroy may be called. */

typedef struct kiosk_jpeg kiosk_jpeg;

/* A decompressor reading the open regular file `fd` from its current offset through stdio (fdopen: bounded
 * buffered reads, the file is never held whole). Takes the descriptor over: kiosk_jpeg_destroy closes it, and so
 * does a failed create (NULL: out of memory or fdopen failed). */
kiosk_jpeg *kiosk_jpeg_create(int fd);

/* The `struct jpeg_decompress_struct` inside (as void *, so this header needs no jpeglib.h): parameters are read
 * and set there between kiosk_jpeg_read_header and kiosk_jpeg_start. */
void *kiosk_jpeg_decompressor(kiosk_jpeg *j);

/* jpeg_read_header(require_image = TRUE). */
int kiosk_jpeg_read_header(kiosk_jpeg *j);

/* jpeg_start_decompress (for a progressive file this reads every scan). */
int kiosk_jpeg_start(kiosk_jpeg *j);

/* Reads up to `max_rows` output rows (jpeg_read_scanlines) into `buffer`, one row every `stride` bytes; returns the
 * rows read (0 only at the end of the picture), or -1. */
int kiosk_jpeg_read_rows(kiosk_jpeg *j, unsigned char *buffer, size_t stride, unsigned int max_rows);

/* The latest error's text ("" when none). */
const char *kiosk_jpeg_message(const kiosk_jpeg *j);

/* How many corrupt-data warnings libjpeg gave so far. */
unsigned long kiosk_jpeg_warnings(const kiosk_jpeg *j);

/* Frees the decompressor and closes the file. NULL is allowed. */
void kiosk_jpeg_destroy(kiosk_jpeg *j);

#endif
