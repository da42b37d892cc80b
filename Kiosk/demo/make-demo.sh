#!/usr/bin/env bash
# Regenerates the built-in demo playlist's media with the ffmpeg CLI (the results are committed, so a
# fresh checkout plays the demo without running this). Each file shows one thing the player does.
set -euo pipefail
cd "$(dirname "$0")"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
# A wide photographic-like still (contain letterboxes it).
ff -f lavfi -i "mandelbrot=size=1600x800:end_pts=40:start_scale=1.2:outer=normalized_iteration_count" -frames:v 1 -q:v 4 01-wide-mandelbrot.jpg
# A portrait picture stored sideways with EXIF orientation 6 (shown upright).
ff -f lavfi -i "gradients=size=900x600:c0=0x1f4e79:c1=0xf2a900:c2=0xc00000:n=3:seed=7,drawbox=x=40:y=40:w=200:h=120:color=white@0.9:t=fill" -frames:v 1 -q:v 4 02-exif-rotated.src.jpg
python3 - <<'PY'
import struct
src = open("02-exif-rotated.src.jpg", "rb").read()
# TIFF header (little endian), IFD0 with one entry: Orientation (0x0112), SHORT, 1, value 6
ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0)
tiff = b"II*\x00" + struct.pack("<I", 8) + ifd
app1 = b"Exif\x00\x00" + tiff
seg = b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
open("02-exif-rotated.jpg", "wb").write(src[:2] + seg + src[2:])
PY
rm 02-exif-rotated.src.jpg
# An animated GIF (plays whole loops before advancing).
ff -f lavfi -i "life=size=160x120:rate=8:mold=10:ratio=0.2:death_color=#203040:life_color=#f0c000" -t 2 -loop 0 03-life.gif
# An animated WebP.
ff -f lavfi -i "testsrc2=size=320x240:rate=12" -t 2 -c:v libwebp -lossless 0 -q:v 60 -loop 0 04-testsrc.webp
# A PNG with transparency, composited on the background colour.
ff -f lavfi -i "color=c=black@0:size=640x640,format=rgba,geq=r='255*X/W':g='128':b='255*Y/H':a='255*lt(hypot(X-W/2,Y-H/2),W/2.2)'" -frames:v 1 05-alpha-disc.png
# An APNG, a short loop.
ff -f lavfi -i "testsrc=size=240x180:rate=8" -t 1.5 -plays 0 -f apng 06-testsrc.apng
# A 360x180 equirect panorama (seamless at the wrap: a picture and its mirror), detected by the _360 name token;
# the playlist's #EXTKIOSK line sets its start view, and the slideshow pans its yaw.
ff -f lavfi -i "mandelbrot=size=1024x1024:end_pts=40:start_scale=2.5:outer=normalized_iteration_count" -frames:v 1 \
   -filter_complex "split[a][b];[b]hflip[c];[a][c]hstack" -q:v 4 07-pano_360.jpg
