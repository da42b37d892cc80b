// Mosaic: left of the split (canvas x ≤ u_split, 0..1) each canvas point shows the centre of its tile of
// u_tile canvas pixels (tiles laid out from the canvas centre; a tile cut by the canvas edge shows the point
// nearest its centre inside the canvas); right of it the picture is untouched. A bar of u_bar whole canvas
// pixels in u_barColor covers the split: the columns centred on the pixel edge nearest it (0: no bar).
uniform float u_tile;
uniform float u_split;
uniform float u_bar;
uniform vec3 u_barColor;

vec2 kiosk_effect(vec2 canvasUV) {
    if (canvasUV.x > u_split) {
        return canvasUV;
    }
    vec2 half_ = 0.5 * u_canvasSize;
    vec2 p = canvasUV * u_canvasSize - half_;
    p = floor(p / u_tile) * u_tile + 0.5 * u_tile + half_;
    return clamp(p, vec2(0.5), u_canvasSize - 0.5) / u_canvasSize;
}

// Columns are compared as whole pixel indices (floor of the pixel centre), so no column is decided by rounding.
vec3 kiosk_effect_paint(vec2 canvasUV, vec3 rgb) {
    float edge = floor(u_split * u_canvasSize.x + 0.5);
    float first = edge - ceil(0.5 * u_bar);
    float column = floor(canvasUV.x * u_canvasSize.x);
    return (column >= first && column < first + u_bar) ? u_barColor : rgb;
}
