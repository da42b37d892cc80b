#!/usr/bin/env bash
# Regenerates the built-in demo's media with the ffmpeg CLI (the results are committed, so a fresh checkout plays
# the demo without running this). The photos come from Debian's lomiri-wallpapers-16.04 package
# (`apt-get install lomiri-wallpapers-16.04`: /usr/share/backgrounds); their authors and licences are in CREDITS.
# The clip, its sound and the melody are made here from ffmpeg's generators.
set -euo pipefail
cd "$(dirname "$0")"
walls=/usr/share/backgrounds
for f in seeding_by_Clements_Engelhardt picosdeeuropa_by_Aitzol_Berasategi friends_by_Aitzol_Berasategi \
         life_by_Aitzol_Berasategi aitzgorri_by_Aitzol_Berasategi sunset_by_Aitzol_Berasategi; do
  [ -r "$walls/$f.jpg" ] || { echo "make-demo.sh: $walls/$f.jpg is missing: apt-get install lomiri-wallpapers-16.04" >&2; exit 1; }
done
# Every generator below is bounded (a duration or one frame): an endless source feeding palettegen or a filter
# that waits for the end would fill the memory.
ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }
# A photo at most 1920 px wide, JPEG quality about 80, no metadata carried over.
photo() { ff -i "$walls/$1.jpg" -vf "scale='min(1920,iw)':-2:flags=lanczos" -map_metadata -1 -q:v 5 "$2"; }

# An aevalsrc expression playing NOTES (Hz), STEP seconds each, as plucked notes (a quick attack, a decay, and
# silence at each note's end so the frequency changes without a click) an octave doubled, over a soft drone of DRONE Hz.
melody() {
  local step=$1 drone=$2; shift 2
  local f="" close="" i=1 n
  for n in "$@"; do
    f="${f}if(lt(t\\,$(awk "BEGIN{print $i*$step}"))\\,$n\\,"
    close="$close)"
    i=$((i + 1))
  done
  f="${f}$1${close}"
  local m="mod(t\\,$step)"
  local env="exp(-4*$m)*min(1\\,$m*200)*min(1\\,($step-$m)*40)"
  echo "0.3*$env*(sin(2*PI*t*($f))+0.25*sin(4*PI*t*($f)))+0.06*sin(2*PI*t*$drone)"
}

# 01, 02: photos for the captions and Ken Burns (the demo runs with --ken-burns: it moves every still).
photo seeding_by_Clements_Engelhardt 01-dandelions.jpg
photo picosdeeuropa_by_Aitzol_Berasategi 02-picos-de-europa.jpg

# 03: a 6 s clip with sound: a sunrise over hills (a sky gradient brightening, a sun rising, a hill silhouette),
# H.264 and AAC, with a melody in C major.
notes=(523.25 659.25 783.99 1046.50 783.99 659.25 587.33 698.46 880.00 698.46 587.33 493.88 523.25 659.25 783.99 1046.50)
ff -f lavfi -i "color=c=black:size=960x540:rate=1,geq=r='clip(11+244*pow(Y/H\,1.6)\,0\,255)':g='clip(29+129*pow(Y/H\,1.6)\,0\,255)':b='81-13*Y/H',trim=end_frame=1,loop=-1:1,fps=25,eq=brightness='-0.12+0.12*min(1\,t/5)':eval=frame" \
   -f lavfi -i "color=c=0xfff1b8:size=140x140:rate=1,format=rgba,geq=r='r(X\,Y)':g='g(X\,Y)':b='b(X\,Y)':a='255*clip((66-hypot(X-70\,Y-70))/3\,0\,1)',trim=end_frame=1,loop=-1:1,fps=25" \
   -f lavfi -i "color=c=0x10261a:size=960x540:rate=1,format=rgba,geq=r='r(X\,Y)':g='g(X\,Y)':b='b(X\,Y)':a='255*gt(Y\,H*0.72+26*sin(X/83)+14*sin(X/31+1))',trim=end_frame=1,loop=-1:1,fps=25" \
   -f lavfi -i "aevalsrc=exprs='$(melody 0.375 130.81 "${notes[@]}")':s=44100:d=6" \
   -filter_complex "[0][1]overlay=x='130+600*t/6':y='400-280*sin(PI*min(t/6\,1)*0.8)'[s];[s][2]overlay[v]" \
   -map "[v]" -map 3:a -t 6 -c:v libx264 -preset slow -crf 27 -pix_fmt yuv420p -c:a aac -b:a 96k -movflags +faststart \
   03-sunrise.mp4

# 04: a portrait photo stored sideways (turned a quarter anticlockwise) with EXIF orientation 6: shown upright.
ff -i "$walls/friends_by_Aitzol_Berasategi.jpg" -vf "scale=-2:'min(1920,ih)':flags=lanczos,transpose=cclock" -map_metadata -1 -q:v 5 04-src.jpg
python3 - <<'PY'
import struct
src = open("04-src.jpg", "rb").read()
# TIFF header (little endian), IFD0 with one entry: Orientation (0x0112), SHORT, 1, value 6
ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack("<I", 0)
tiff = b"II*\x00" + struct.pack("<I", 8) + ifd
app1 = b"Exif\x00\x00" + tiff
seg = b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
open("04-friends-portrait.jpg", "wb").write(src[:2] + seg + src[2:])
PY
rm 04-src.jpg

# 05: a sound file for the now-playing card: an 8 s melody (MP3) tagged with a title, artist, album, date and
# track, and a square crop of a sunset photo as its cover art.
ff -i "$walls/sunset_by_Aitzol_Berasategi.jpg" -vf "crop=ih:ih,scale=500:500:flags=lanczos" -map_metadata -1 -q:v 5 05-cover.jpg
tune=(392.00 440.00 493.88 587.33 493.88 440.00 392.00 329.63 392.00 440.00 493.88 440.00 392.00 293.66 329.63 392.00)
ff -f lavfi -i "aevalsrc=exprs='$(melody 0.5 98.00 "${tune[@]}")':s=44100:d=8" -i 05-cover.jpg \
   -map 0:a -map 1:v -c:a libmp3lame -b:a 96k -c:v copy -disposition:v attached_pic -id3v2_version 3 \
   -metadata:s:v title="Album cover" -metadata:s:v comment="Cover (front)" \
   -metadata title="Morning Song" -metadata artist="The Kiosk Ensemble" -metadata album="Built-in Demo" \
   -metadata date=2025 -metadata track=5/7 05-morning-song.mp3
rm 05-cover.jpg

# 06: a busy photo (a forest stream) for a caption over detail.
photo life_by_Aitzol_Berasategi 06-forest-stream.jpg

# 07: a 360x180 equirect panorama from a landscape photo, detected by the _360 name token; the playlist's
# #EXTKIOSK line sets its start view and the slideshow pans its yaw. The photo and its mirror image side by side
# make the full turn (seamless at both joins); it fills the middle 2/3 of the height, and the sky and ground
# above and below are its edge rows stretched and blurred towards the poles.
ff -i "$walls/aitzgorri_by_Aitzol_Berasategi.jpg" -filter_complex "[0]scale=1536:1024:flags=lanczos,setsar=1,split[a][b];[b]hflip[c];[a][c]hstack,pad=3072:1536:0:256,fillborders=top=256:bottom=256:mode=smear,format=yuv444p,split[s][t];[t]gblur=sigma=60[blur];[s][blur]blend=all_expr='B+(A-B)*clip(min(Y/H-0.2\,0.82-Y/H)/0.06\,0\,1)',format=yuvj420p" \
   -map_metadata -1 -q:v 5 07-pano_360.jpg
# The mosaic with its split bar sweeping (the playlist's #EXTKIOSK:effect= line): a fractal, whose detail shows
# the pixelation left of the bar.
ff -f lavfi -i "mandelbrot=size=1600x900:end_pts=40:start_scale=1.2:outer=normalized_iteration_count" -frames:v 1 \
   -q:v 4 08-mosaic-mandelbrot.jpg
