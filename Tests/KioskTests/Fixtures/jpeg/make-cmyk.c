/* The CMYK fixtures cmyk.jpg and ycck.jpg: gcc make-cmyk.c -ljpeg -o make-cmyk && ./make-cmyk cmyk.jpg && ./make-cmyk ycck.jpg ycck
 * (ffmpeg cannot write CMYK JPEG; libjpeg adds the Adobe APP14 marker itself). No component is subsampled, so
 * both files hold the same picture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
/* Writes an Adobe CMYK (inverted inks) JPEG of a colour pattern; argv[2] "ycck" stores it as YCCK. */
int main(int argc, char **argv) {
    int w = 160, h = 120;
    FILE *f = fopen(argv[1], "wb");
    struct jpeg_compress_struct c; struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e); jpeg_create_compress(&c); jpeg_stdio_dest(&c, f);
    c.image_width = w; c.image_height = h; c.input_components = 4; c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, argc > 2 && !strcmp(argv[2], "ycck") ? JCS_YCCK : JCS_CMYK);
    for (int i = 0; i < c.num_components; i++) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    jpeg_set_quality(&c, 95, TRUE);
    jpeg_start_compress(&c, TRUE);
    unsigned char *row = malloc(w * 4);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int r = x * 255 / (w - 1), g = y * 255 / (h - 1), b = ((x / 20 + y / 20) & 1) ? 200 : 40;
            int k = 255 - (r > g ? (r > b ? r : b) : (g > b ? g : b));
            int cc = k == 255 ? 0 : (255 - r - k) * 255 / (255 - k);
            int mm = k == 255 ? 0 : (255 - g - k) * 255 / (255 - k);
            int yy = k == 255 ? 0 : (255 - b - k) * 255 / (255 - k);
            row[x*4] = 255 - cc; row[x*4+1] = 255 - mm; row[x*4+2] = 255 - yy; row[x*4+3] = 255 - k;
        }
        JSAMPROW rp = row; jpeg_write_scanlines(&c, &rp, 1);
    }
    jpeg_finish_compress(&c); fclose(f); return 0;
}
