#!/usr/bin/env bash
# Regenerates the pictures the example layouts use (the results are committed, so a fresh checkout plays them
# without running this): a shop's logo and three offer cards, drawn with ffmpeg's drawtext in DejaVu Sans
# (fonts-dejavu-core). The main clip and the photos are the demo's own (../demo).
set -euo pipefail
cd "$(dirname "$0")"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
[ -r "$font" ] || { echo "make-examples.sh: $font is missing: apt-get install fonts-dejavu-core" >&2; exit 1; }
ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }
text() { echo "drawtext=fontfile=$font:text='$1':fontcolor=$2:fontsize=$3:x=(w-text_w)/2:y=$4"; }
# The logo: white on the shop's green, 480x200.
ff -f lavfi -i "color=c=0x1b5e20:s=480x200:d=1" -frames:v 1 \
   -vf "$(text 'CORNER' white 64 40),$(text 'BAKERY' 0xffd54f 64 110)" logo.png
# Offer cards, 480x880 (the side region's size in shop-window.smil): a price in large type over a colour.
card() {
  ff -f lavfi -i "color=c=$1:s=480x880:d=1" -frames:v 1 \
     -vf "$(text "$2" white 52 260),$(text "$3" white 52 340),$(text "$4" 0xffd54f 120 480)" "$5"
}
card 0xb71c1c 'Fresh' 'croissants' '3 for 2' offer-1.png
card 0x0d47a1 'Sourdough' 'loaf' '4.50' offer-2.png
card 0x4a148c 'Coffee' 'and a cake' '5.00' offer-3.png
