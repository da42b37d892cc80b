#version 300 es
// Common head of every layer shader. A layer shader is composed of pieces, in this order:
//   prelude.frag + one sampling stage (defines vec4 kiosk_sample(vec2 uv): premultiplied RGBA at texture uv;
//   sample_rgba.frag, or yuv.frag + a video layout's piece) + one effect (defines vec2 kiosk_effect(vec2 canvasUV) and
//   vec3 kiosk_effect_paint(vec2 canvasUV, vec3 rgb), what it paints over the finished colour) +
//   one transition (defines vec3 kiosk_transition(vec2 canvasUV): xy the canvas point of the layer's own picture shown
//   here, z the layer's coverage 0..1) + the projection's helpers +
//   one projection (defines vec2 kiosk_source(vec2 canvasUV): texture uv, or negative outside the source) + main.frag
// Canvas uv: (0,0) top-left, (1,1) bottom-right, at pixel centres. Texture uv: row 0 is the picture's top.
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform vec3 u_background;
uniform float u_opacity;
// The canvas (target) and the picture (as displayed), in pixels.
uniform vec2 u_canvasSize;
uniform vec2 u_pictureSize;
// The transition: the layer's role (0 = outgoing, 1 = incoming) and the progress 0..1.
uniform int u_transitionRole;
uniform float u_progress;

const float KIOSK_PI = 3.14159265358979;
