#include "CKioskJPEGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>

/* Most scans a progressive file may have: libjpeg-turbo's own tools use the same bound against files crafted to
 * spend minutes on thousands of tiny scans. */
#define KIOSK_JPEG_MAX_SCANS 500

struct kiosk_jpeg {
    struct jpeg_decompress_struct cinfo;  /* first: a j_common_ptr is also a kiosk_jpeg * */
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    FILE *file;
    unsigned long warnings;
    char message[JMSG_LENGTH_MAX];
};

static void fail(j_common_ptr c) {
    kiosk_jpeg *j = (kiosk_jpeg *)c;
    (*c->err->format_message)(c, j->message);
    longjmp(j->jump, 1);
}

static void note(j_common_ptr c, int level) {
    kiosk_jpeg *j = (kiosk_jpeg *)c;
    if (level >= 0) return;  /* trace messages */
    if (c->err->msg_code == JWRN_JPEG_EOF) fail(c);  /* the file ends inside the picture: truncated */
    j->warnings++;
}

static void silent(j_common_ptr c) { (void)c; }

static void count_scans(j_common_ptr c) {
    kiosk_jpeg *j = (kiosk_jpeg *)c;
    if (j->cinfo.input_scan_number > KIOSK_JPEG_MAX_SCANS) {
        snprintf(j->message, sizeof j->message, "over %d scans", KIOSK_JPEG_MAX_SCANS);
        longjmp(j->jump, 1);
    }
}

kiosk_jpeg *kiosk_jpeg_create(int fd) {
    kiosk_jpeg *j = calloc(1, sizeof *j);
    FILE *file = j ? fdopen(fd, "rb") : NULL;
    if (!file) {
        free(j);
        close(fd);
        return NULL;
    }
    j->file = file;
    j->cinfo.err = jpeg_std_error(&j->errors);
    j->errors.error_exit = fail;
    j->errors.emit_message = note;
    j->errors.output_message = silent;
    if (setjmp(j->jump)) {  /* out of memory while creating */
        jpeg_destroy_decompress(&j->cinfo);
        fclose(file);
        free(j);
        return NULL;
    }
    jpeg_create_decompress(&j->cinfo);
    j->progress.progress_monitor = count_scans;
    j->cinfo.progress = &j->progress;
    jpeg_stdio_src(&j->cinfo, file);
    return j;
}

void *kiosk_jpeg_decompressor(kiosk_jpeg *j) { return &j->cinfo; }

int kiosk_jpeg_read_header(kiosk_jpeg *j) {
    if (setjmp(j->jump)) return -1;
    jpeg_read_header(&j->cinfo, TRUE);
    return 0;
}

int kiosk_jpeg_start(kiosk_jpeg *j) {
    if (setjmp(j->jump)) return -1;
    jpeg_start_decompress(&j->cinfo);
    return 0;
}

int kiosk_jpeg_read_rows(kiosk_jpeg *j, unsigned char *buffer, size_t stride, unsigned int max_rows) {
    /* volatile: changed between setjmp and a longjmp back to it */
    volatile unsigned int done = 0;
    if (setjmp(j->jump)) return -1;
    while (done < max_rows && j->cinfo.output_scanline < j->cinfo.output_height) {
        JSAMPROW rows[16];
        unsigned int want = max_rows - done;
        if (want > 16) want = 16;
        for (unsigned int i = 0; i < want; i++) rows[i] = buffer + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&j->cinfo, rows, want);
        if (got == 0) break;  /* suspension cannot happen with a stdio source; guard against a loop anyway */
        done += got;
    }
    return (int)done;
}

const char *kiosk_jpeg_message(const kiosk_jpeg *j) { return j->message; }

unsigned long kiosk_jpeg_warnings(const kiosk_jpeg *j) { return j->warnings; }

void kiosk_jpeg_destroy(kiosk_jpeg *j) {
    if (!j) return;
    jpeg_destroy_decompress(&j->cinfo);
    fclose(j->file);
    free(j);
}
