// Taps of the minification pre-pass's area filter (MinifyPass): an output pixel is the mean of the source texels its
// footprint covers, each weighted by the part of it covered (ffmpeg's `area` scaler). One tap reads two neighbouring
// texels with a bilinear filter, placed between their centres so that the mix is their weights' ratio, and counts
// with both weights. Along an axis the footprint [lo, hi) in texels (hi - lo <= 15) takes at most 8 pairs.
const int KIOSK_MINIFY_PAIRS = 8;

// Footprint ends in texels, to 1/256 texel: a product that misses a whole number by a rounding error takes no
// extra pair.
vec2 kiosk_minify_snap(vec2 t) {
    return floor(t * 256.0 + 0.5) / 256.0;
}

// The number of pairs covering [lo, hi).
int kiosk_minify_pairs(float lo, float hi) {
    return min(int(ceil((ceil(hi) - floor(lo)) * 0.5)), KIOSK_MINIFY_PAIRS);
}

// Pair i of [lo, hi): x the tap's position in texels, y the pair's weight.
vec2 kiosk_minify_tap(float lo, float hi, int i) {
    float k = floor(lo) + 2.0 * float(i);
    float wa = max(min(hi, k + 1.0) - max(lo, k), 0.0);
    float wb = max(min(hi, k + 2.0) - max(lo, k + 1.0), 0.0);
    return vec2(k + 0.5 + wb / max(wa + wb, 1e-6), wa + wb);
}
