// Sampling stage for a picture uploaded as one RGBA8 texture (premultiplied): stills and animations. A picture
// layer's still is stored bottom-up (u_pictureFlip 1: a plain copy then writes it unflipped); others top-down (0).
// (Sphere projections use sample_rgba_exact.frag.)
uniform sampler2D u_picture;
uniform float u_pictureFlip;

vec4 kiosk_sample(vec2 uv) {
    return texture(u_picture, vec2(uv.x, mix(uv.y, 1.0 - uv.y, u_pictureFlip)));
}
