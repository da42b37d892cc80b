// A flat picture placed on the canvas: picture uv = canvas uv * u_uvScale + u_uvOffset (a FlatView: fit, zoom,
// pan), outside 0..1 is background. The picture is the u_crop part of the texture (x, y, w, h in texture uv):
// the whole texture, or one eye of stereo content; sampling stays half a texel inside the crop.
uniform vec2 u_uvScale;
uniform vec2 u_uvOffset;
uniform vec4 u_crop;

vec2 kiosk_source(vec2 canvasUV) {
    vec2 p = canvasUV * u_uvScale + u_uvOffset;
    if (any(lessThan(p, vec2(0.0))) || any(greaterThan(p, vec2(1.0)))) {
        return vec2(-1.0);
    }
    vec2 halfTexel = 0.5 / u_pictureSize;
    return clamp(u_crop.xy + p * u_crop.zw, u_crop.xy + halfTexel, u_crop.xy + u_crop.zw - halfTexel);
}
