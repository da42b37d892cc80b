#!/usr/bin/env bash
# Fuzzes kiosk's parsers and decoders with libFuzzer (Swift's -sanitize=fuzzer,address).
#
#   Kiosk/fuzz.sh TARGET|all SECONDS [LIBFUZZER_ARGS ...]
#
# Targets (Fuzz/*.swift): sniff (format sniffing + probe), image (JPEG/PNG/BMP/TIFF/APNG via libavcodec), gif,
# gif-anim, webp, webp-anim (giflib / libwebp, seeded with stills / animations), m3u (playlists and #EXTKIOSK
# lines), config (config files through `kiosk play`'s option tables).
#
# The harness is a product only Package.swift with KIOSK_FUZZ set has; it is built in .build-fuzz, so the
# normal build never links libFuzzer. Seed corpora are generated with ffmpeg into .build-fuzz/corpus/TARGET,
# which also keeps what libFuzzer finds. An input that crashes, leaks, runs out of memory or time is kept in
# .build-fuzz/crashes/TARGET/ (replay: KIOSK_FUZZ_TARGET=TARGET .build-fuzz/release/kiosk-fuzz FILE).
# `all` runs KIOSK_FUZZ_JOBS targets at a time (default 2). Ends with `fuzz: N passed, M failed`; exits 1 on a
# failure. libFuzzer is seeded (KIOSK_FUZZ_SEED, default 20261201), so a run can be repeated.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(sniff image gif gif-anim webp webp-anim m3u config web-request web-multipart web-name)
usage() { echo "usage: Kiosk/fuzz.sh TARGET|all SECONDS [LIBFUZZER_ARGS ...]; targets: ${targets[*]}" >&2; exit 2; }
[ $# -ge 2 ] || usage
what="$1" seconds="$2"
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || usage
if [ "$what" = all ]; then run=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $what "* ]]; then run=("$what")
else usage
fi
export PATH="/opt/swift/usr/bin:$PATH"
root=.build-fuzz
bin="$root/release/kiosk-fuzz"

echo "fuzz: building the harness (release, -sanitize=fuzzer,address) in $root" >&2
KIOSK_FUZZ=1 swift build -c release --build-path "$root" --product kiosk-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >&2

# Seeds: small files of each format made by ffmpeg, playlists and configs written here. Regenerated each run
# (same names, so they replace themselves); what libFuzzer adds keeps its hash names.
seed() { ffmpeg -v error -y "$@" </dev/null; }
make_seeds() {
  local c="$root/corpus" s
  mkdir -p "$c"/{sniff,image,gif,gif-anim,webp,webp-anim,m3u,config,web-request,web-multipart,web-name}
  # parts: a header byte (bit 0 a file, bit 1 a new part's name, bits 2-7 the length), then the bytes
  printf '\x2f\x66\x69\x6c\x65\x73\x2f\x61\x2e\x6a\x70\x67\x10\xff\xd8\xff\xe0\x16csrf/\x14abcde' >"$c/web-multipart/seed-file-and-field"
  # the web page's requests (METHOD PATH, headers, a blank line, the body) and upload names
  printf 'POST /api/command\ncontent-type: application/json\nauthorization: Bearer fuzz-token-0123456789abcdef\n\n["playlist-next"]' >"$c/web-request/seed-command"
  printf 'POST /login\ncontent-type: application/x-www-form-urlencoded\n\npassword=wrong&csrf=x' >"$c/web-request/seed-login"
  printf 'GET /api/report?by=day&format=csv&since=2026-12-01\ncookie: kiosk_session=00\n\n' >"$c/web-request/seed-report"
  printf 'DELETE /api/media/keep.png\nx-csrf-token: 00\n\n' >"$c/web-request/seed-delete"
  printf 'POST /api/caption\ncontent-type: application/json\nauthorization: Bearer fuzz-token-0123456789abcdef\n\n{"name":"keep.png","caption":"x"}' >"$c/web-request/seed-caption"
  printf 'POST /api/command\ncontent-type: application/json\nauthorization: bearer \t fuzz-token-0123456789abcdef\n\n["stop"]' >"$c/web-request/seed-bearer-spelled"
  printf '../../x.jpg' >"$c/web-name/seed-climb"; printf 'Cafe\xcc\x81 \xe2\x80\xae.png' >"$c/web-name/seed-nfc"
  printf '"GET "\n"POST "\n"DELETE "\n"/api/"\n"/api/media/"\n"/api/command"\n"/api/upload"\n"/api/schedule"\n"/api/playlist"\n"/api/caption"\n"/login"\n"/logout"\n"authorization: Bearer fuzz-token-0123456789abcdef"\n"bearer "\n"\\x09"\n"cookie: kiosk_session="\n"x-csrf-token: "\n"content-type: application/json"\n"\\x0a\\x0a"\n"../"\n"%%2F"\n' >"$root/web-request.dict"
  s=(-f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 1)
  seed "${s[@]}" -q:v 5 "$c/image/seed.jpg"
  seed "${s[@]}" -pix_fmt gray -q:v 5 "$c/image/seed-gray.jpg"
  seed -f lavfi -i "testsrc=size=24x16" -frames:v 1 -q:v 2 -huffman 0 -pix_fmt yuvj444p "$c/image/seed-444.jpg"
  # EXIF orientation (big- and little-endian TIFF) and Photo Sphere XMP, spliced in after the SOI marker.
  local exif_mm='\xff\xe1\x00\x22Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00\x00\x00\x00\x00'
  local exif_ii='\xff\xe1\x00\x22Exif\x00\x00II\x2a\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00'
  local xmp='http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><rdf:Description GPano:ProjectionType="equirectangular" GPano:CroppedAreaImageWidthPixels="8" GPano:FullPanoWidthPixels="16"/></x:xmpmeta>'
  { head -c 2 "$c/image/seed.jpg"; printf "$exif_mm"; tail -c +3 "$c/image/seed.jpg"; } >"$c/image/seed-exif6.jpg"
  { head -c 2 "$c/image/seed.jpg"; printf "$exif_ii"; printf '\xff\xe1'; printf "\\x00\\x$(printf %02x $((${#xmp} - 3 + 2)))"; printf "$xmp"; tail -c +3 "$c/image/seed.jpg"; } >"$c/image/seed-exif8-xmp.jpg"
  seed "${s[@]}" -pix_fmt rgba "$c/image/seed.png"
  seed "${s[@]}" -pix_fmt pal8 "$c/image/seed-pal8.png"
  seed "${s[@]}" -pix_fmt rgb48be "$c/image/seed-rgb48.png"
  seed "${s[@]}" -pix_fmt gray "$c/image/seed-gray.png"
  seed "${s[@]}" -pix_fmt bgr24 "$c/image/seed.bmp"
  seed "${s[@]}" -pix_fmt pal8 "$c/image/seed-pal8.bmp"
  seed "${s[@]}" -compression_algo raw "$c/image/seed-raw.tiff"
  seed "${s[@]}" -compression_algo lzw -pix_fmt rgba "$c/image/seed-lzw.tiff"
  seed "${s[@]}" -compression_algo deflate -pix_fmt gray "$c/image/seed-deflate.tiff"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 3 -plays 0 -f apng "$c/image/seed.apng"
  seed "${s[@]}" "$c/gif/seed.gif"
  seed -f lavfi -i "color=c=red:size=8x8" -frames:v 1 "$c/gif/seed-flat.gif"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 3 -loop 0 "$c/gif-anim/seed-forever.gif"
  seed -f lavfi -i "testsrc=size=16x12:rate=50" -frames:v 4 -loop 2 "$c/gif-anim/seed-twice.gif"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -vf "format=rgba,geq=r='r(X,Y)':a='if(lt(X,8),0,255)'" \
    -frames:v 3 -loop 1 "$c/gif-anim/seed-alpha.gif"
  seed "${s[@]}" -c:v libwebp -quality 30 "$c/webp/seed-lossy.webp"
  seed "${s[@]}" -c:v libwebp -lossless 1 "$c/webp/seed-lossless.webp"
  seed "${s[@]}" -c:v libwebp -pix_fmt yuva420p -quality 30 "$c/webp/seed-alpha.webp"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 3 -c:v libwebp_anim -quality 20 -loop 0 \
    "$c/webp-anim/seed.webp"
  seed -f lavfi -i "testsrc=size=16x12:rate=20" -frames:v 3 -c:v libwebp_anim -lossless 1 -loop 3 \
    "$c/webp-anim/seed-lossless.webp"
  cp "$c"/image/seed.{jpg,png,bmp,apng} "$c"/image/seed-{raw.tiff,exif8-xmp.jpg} "$c/gif/seed.gif" \
    "$c/gif-anim/seed-forever.gif" "$c/webp/seed-lossy.webp" "$c/webp-anim/seed.webp" "$c/sniff/" 2>/dev/null || true
  seed -f lavfi -i "sine=frequency=440:duration=0.05" -ar 8000 "$c/sniff/seed.wav"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 2 -c:v mpeg4 -f matroska "$c/sniff/seed.mkv"
  seed -f lavfi -i "testsrc=size=16x12:rate=5" -frames:v 2 -c:v mpeg4 -movflags +faststart "$c/sniff/seed.mp4"
  printf '#EXTM3U\n#EXTKIOSK:projection=equirect,input-fov=180,stereo=sbs,eye=right,yaw=30\n#EXTINF:20,\nconcert.jpg\n/abs/path/beach_360_sbs.jpg\nfile:///srv/x.png\n' >"$c/m3u/seed-basic.m3u"
  printf '\xef\xbb\xbf#EXTINF:3.5,title\r\nfisheye190.jpg\r\n#EXTKIOSK:fov=100x60,pitch=-10\r\n#EXTKIOSK:roll=5,projection=fisheye,input-fov=200\r\nvr180_tb.mp4\r\n#EXTKIOSK:stereo=htb,bad\n#EXTINF:-1,\nsub/dir/a.gif\n' >"$c/m3u/seed-crlf.m3u"
  cp Kiosk/kiosk.conf.example "$c/config/seed-example.conf"
  printf 'duration = 3\nloop = false\nshuffle = yes\nseed = 42\ntransition = "slide:up"\nbackground = #102030 # a comment\nsize = 640x360\nprojection = equirect\nfov = 90x60\nkey = KEY_F5=next\nkey = 0x1c=quit\npath = "/srv/a b.m3u"\n' >"$c/config/seed-options.conf"
  printf 'effect = mosaic:tile=8:split=0.25\nrotate = 90\ndrm-mode = 1280x720@50\nvolume = 40\nmute = on\ntouch-idle = 30\nzoom = 2\ncenter = 0.5,0.5\n' >"$c/config/seed-more.conf"
  printf '"#EXTKIOSK:"\n"#EXTINF:"\n"projection="\n"input-fov="\n"stereo="\n"eye="\n"yaw="\n"pitch="\n"roll="\n"fov="\n"equirect"\n"fisheye"\n"flat"\n"sbs"\n"htb"\n"right"\n"file://"\n"360"\n"x"\n",="\n' >"$root/m3u.dict"
  printf '"= "\n"true"\n"false"\n"path"\n"duration"\n"transition"\n"key"\n"KEY_"\n"fov"\n"size"\n"background"\n"#"\n"\\""\n"--"\n"config"\n"=0x"\n' >"$root/config.dict"
}
mkdir -p "$root"
make_seeds

# One target for SECONDS: prints one line, returns 0 when nothing was found.
run_one() {
  local t="$1" log="$root/logs/$1.log" crashes="$root/crashes/$1" dict=() rc=0
  shift
  mkdir -p "$root/logs" "$crashes"
  [ -f "$root/$t.dict" ] && dict=(-dict="$root/$t.dict")
  # SWIFT_BACKTRACE=enable=no: a Swift trap goes to libFuzzer as a deadly signal with ASan's stack, not through
  # Swift's own backtracer (which ASan reports as an unknown crash).
  KIOSK_FUZZ_TARGET="$t" SWIFT_BACKTRACE=enable=no "$bin" -seed="${KIOSK_FUZZ_SEED:-20261201}" -max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=3072 \
    -artifact_prefix="$crashes/" "${dict[@]}" "$@" "$root/corpus/$t" >"$log" 2>&1 || rc=$?
  local runs rate
  runs="$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)"
  rate="$(grep -oE 'average_exec_per_sec: +[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)"
  if [ "$rc" = 0 ]; then
    echo "fuzz $t: ok, $runs executions in ${seconds} s ($rate/s), corpus $(ls "$root/corpus/$t" | wc -l)"
  else
    local kept
    kept="$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n 1 | sed 's/Test unit written to //' || true)"
    echo "fuzz $t: FAILED (exit $rc) after $runs executions; input: ${kept:-none}; log: $log"
    grep -m 3 -E 'ERROR|invariant|Fatal error|SUMMARY' "$log" | sed 's/^/  /' || true
  fi
  return "$rc"
}

passed=0 failed=0
jobs_at_once="${KIOSK_FUZZ_JOBS:-2}"
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
for t in "${run[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  ( run_one "$t" "$@" >"$results/$t" 2>&1; echo $? >"$results/$t.rc" ) &
done
wait
for t in "${run[@]}"; do
  cat "$results/$t"
  if [ "$(cat "$results/$t.rc" 2>/dev/null || echo 1)" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
