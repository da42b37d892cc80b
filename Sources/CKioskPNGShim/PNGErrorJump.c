#include "CKioskPNGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <png.h>

struct kiosk_png {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    FILE *file;
    unsigned int width, height, row;
    int ready;  /* the header was read and the transforms set */
    char message[200];
};

static void fail(png_structp png, png_const_charp text) {
    kiosk_png *p = png_get_error_ptr(png);
    snprintf(p->message, sizeof p->message, "%s", text ? text : "unknown error");
    longjmp(p->jump, 1);
}

static void ignore(png_structp png, png_const_charp text) { (void)png; (void)text; }

kiosk_png *kiosk_png_create(int fd) {
    kiosk_png *p = calloc(1, sizeof *p);
    FILE *file = p ? fdopen(fd, "rb") : NULL;
    if (!file) {
        free(p);
        close(fd);
        return NULL;
    }
    p->file = file;
    p->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, p, fail, ignore);
    p->info = p->png ? png_create_info_struct(p->png) : NULL;
    if (!p->info) {
        kiosk_png_destroy(p);
        return NULL;
    }
    png_init_io(p->png, file);
    return p;
}

int kiosk_png_read_header(kiosk_png *p, unsigned int *width, unsigned int *height, int *interlaced) {
    if (setjmp(p->jump)) return -1;
    png_read_info(p->png, p->info);
    int type = png_get_color_type(p->png, p->info);
    int depth = png_get_bit_depth(p->png, p->info);
    int transparency = png_get_valid(p->png, p->info, PNG_INFO_tRNS) != 0;
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(p->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(p->png);
    if (transparency) png_set_tRNS_to_alpha(p->png);
    if (depth == 16) png_set_scale_16(p->png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(p->png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !transparency) png_set_filler(p->png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(p->png, p->info);
    p->width = png_get_image_width(p->png, p->info);
    p->height = png_get_image_height(p->png, p->info);
    *width = p->width;
    *height = p->height;
    *interlaced = png_get_interlace_type(p->png, p->info) != PNG_INTERLACE_NONE;
    if (png_get_rowbytes(p->png, p->info) != (size_t)p->width * 4) {
        snprintf(p->message, sizeof p->message, "rows of %zu bytes, not RGBA", (size_t)png_get_rowbytes(p->png, p->info));
        return -1;
    }
    p->ready = !*interlaced;
    return 0;
}

int kiosk_png_read_rows(kiosk_png *p, unsigned char *buffer, size_t stride, unsigned int max_rows) {
    /* volatile: changed between setjmp and a longjmp back to it */
    volatile unsigned int done = 0;
    if (!p->ready || stride < (size_t)p->width * 4) {
        snprintf(p->message, sizeof p->message, "not set up for reading rows one at a time");
        return -1;
    }
    if (setjmp(p->jump)) return -1;
    while (done < max_rows && p->row < p->height) {
        png_read_row(p->png, buffer + (size_t)done * stride, NULL);
        p->row++;
        done++;
    }
    return (int)done;
}

const char *kiosk_png_message(const kiosk_png *p) { return p->message; }

void kiosk_png_destroy(kiosk_png *p) {
    if (!p) return;
    if (p->png) png_destroy_read_struct(&p->png, p->info ? &p->info : NULL, NULL);
    if (p->file) fclose(p->file);
    free(p);
}
