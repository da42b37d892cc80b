#ifndef CKIOSK_PNG_SHIM_H
#define CKIOSK_PNG_SHIM_H

#include <stddef.h>

/* libpng reports a fatal error by calling its error function, which must not return: the usual handler longjmps
 * back to a setjmp in the caller. Swift cannot setjmp, so every libpng call that can fail runs here, inside a
 * setjmp, and comes back as a status (0: done, -1: refused, with the message in kiosk_png_message). Warnings are
 * dropped; nothing is written to stderr. After a -1, only kiosk_png_message and kiosk_png_destroy may be called. */

typedef struct kiosk_png kiosk_png;

/* A reader of the open regular file `fd` from its current offset through stdio (fdopen: bounded buffered reads,
 * the file is never held whole). Takes the descriptor over: kiosk_png_destroy closes it, and so does a failed
 * create (NULL: out of memory or fdopen failed). */
kiosk_png *kiosk_png_create(int fd);

/* Reads the chunks up to the image data and sets libpng's transforms so that every row comes out RGBA, 8 bits a
 * channel (palette and low-depth gray expanded, tRNS made alpha, 16 bits scaled with rounding, gray made RGB, an
 * opaque alpha added where there is none). Gives the picture's size and whether it is interlaced (Adam7, which
 * cannot be read a row at a time: kiosk_png_read_rows then refuses). */
int kiosk_png_read_header(kiosk_png *p, unsigned int *width, unsigned int *height, int *interlaced);

/* Reads up to `max_rows` RGBA rows (png_read_row) into `buffer`, one row every `stride` bytes (at least width * 4);
 * returns the rows read (0 only at the end of the picture), or -1. */
int kiosk_png_read_rows(kiosk_png *p, unsigned char *buffer, size_t stride, unsigned int max_rows);

/* The latest error's text ("" when none). */
const char *kiosk_png_message(const kiosk_png *p);

/* Frees the reader and closes the file. NULL is allowed. */
void kiosk_png_destroy(kiosk_png *p);

#endif
