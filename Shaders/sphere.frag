// Helpers for sphere projections, with ffmpeg v360's conventions: the view is rectilinear (v360 output=flat);
// the ray through a canvas point is (tan(hfov/2)·(2u−1), tan(vfov/2)·(2v−1), 1) with x right, y down, z forward,
// turned by u_rotation = Ry(yaw)·Rx(pitch)·Rz(roll). u_eye is the eye's rectangle in texels (x, y, w, h).
uniform mat3 u_rotation;
uniform vec2 u_tanHalfFov;
uniform vec4 u_eye;

vec3 kiosk_view_ray(vec2 canvasUV) {
    vec3 ray = normalize(vec3(u_tanHalfFov * (2.0 * canvasUV - 1.0), 1.0));
    return normalize(u_rotation * ray);
}

// Texture uv of the source point f (each axis -1..1 across the eye), sampled like v360: at (0.5·f + 0.5)·(size − 1)
// texels, so the first and last texel centres are the eye's edges.
vec2 kiosk_eye_uv(vec2 f) {
    vec2 texel = (0.5 * f + 0.5) * (u_eye.zw - 1.0);
    return (u_eye.xy + texel + 0.5) / u_pictureSize;
}
