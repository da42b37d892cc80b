// What llvmpipe's texture reads cost: one full-screen triangle at 1920x1080 (an FBO on Mesa's surfaceless EGL),
// drawn 20 times with glFinish, for each of these fragment shaders:
//   0: one RGBA8 texture()        1: three planes (R8, texture()) and the YUV maths   2: the same at mediump
//   3: one R8 texture()           4: one RGBA8 texelFetch()                            5: three planes, texelFetch()
//   6: luma texelFetch(), chroma texture()
// docs/performance.md quotes it. Build and run:
//   gcc -O2 Kiosk/tools/gles-sampling-cost.c -o /tmp/gles-sampling-cost -lEGL -lGLESv2
//   for k in 0 1 3 4 5; do LIBGL_ALWAYS_SOFTWARE=1 /tmp/gles-sampling-cost $k 1920 1080; done
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static const char*vs="#version 300 es\nout vec2 v_uv;void main(){vec2 p=vec2(float((gl_VertexID<<1)&2),float(gl_VertexID&2));v_uv=p;gl_Position=vec4(p*2.0-1.0,0,1);}";
static GLuint prog(const char*fs){GLuint v=glCreateShader(GL_VERTEX_SHADER);glShaderSource(v,1,&vs,0);glCompileShader(v);
GLuint f=glCreateShader(GL_FRAGMENT_SHADER);glShaderSource(f,1,&fs,0);glCompileShader(f);GLint ok;glGetShaderiv(f,GL_COMPILE_STATUS,&ok);if(!ok){char b[2000];glGetShaderInfoLog(f,2000,0,b);printf("%s\n",b);exit(1);}
GLuint p=glCreateProgram();glAttachShader(p,v);glAttachShader(p,f);glLinkProgram(p);return p;}
int main(int argc,char**argv){
 EGLDisplay d=eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA,EGL_DEFAULT_DISPLAY,0);eglInitialize(d,0,0);
 EGLint ca[]={EGL_RENDERABLE_TYPE,EGL_OPENGL_ES3_BIT,EGL_NONE};EGLConfig c;EGLint n;eglChooseConfig(d,ca,&c,1,&n);eglBindAPI(EGL_OPENGL_ES_API);
 EGLint cx[]={EGL_CONTEXT_MAJOR_VERSION,3,EGL_NONE};EGLContext ctx=eglCreateContext(d,c,EGL_NO_CONTEXT,cx);eglMakeCurrent(d,EGL_NO_SURFACE,EGL_NO_SURFACE,ctx);
 int W=1920,H=1080;GLuint fb,rb;glGenFramebuffers(1,&fb);glBindFramebuffer(GL_FRAMEBUFFER,fb);GLuint ct;glGenTextures(1,&ct);glBindTexture(GL_TEXTURE_2D,ct);glTexStorage2D(GL_TEXTURE_2D,1,GL_RGBA8,W,H);glFramebufferTexture2D(GL_FRAMEBUFFER,GL_COLOR_ATTACHMENT0,GL_TEXTURE_2D,ct,0);
 int tw=atoi(argv[2]),th=atoi(argv[3]);
 GLuint tex[4];glGenTextures(4,tex);unsigned char*buf=malloc(tw*th*4);for(int i=0;i<tw*th*4;i++)buf[i]=rand();
 glPixelStorei(GL_UNPACK_ALIGNMENT,1);
 GLenum ifm[4]={GL_R8,GL_R8,GL_R8,GL_RGBA8},fm[4]={GL_RED,GL_RED,GL_RED,GL_RGBA};int dv[4]={1,2,2,1};
 for(int i=0;i<4;i++){glActiveTexture(GL_TEXTURE0+i);glBindTexture(GL_TEXTURE_2D,tex[i]);glTexImage2D(GL_TEXTURE_2D,0,ifm[i],tw/dv[i],th/dv[i],0,fm[i],GL_UNSIGNED_BYTE,buf);
 glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MIN_FILTER,GL_LINEAR);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_MAG_FILTER,GL_LINEAR);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_S,GL_CLAMP_TO_EDGE);glTexParameteri(GL_TEXTURE_2D,GL_TEXTURE_WRAP_T,GL_CLAMP_TO_EDGE);}
 const char*fs[]={
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t3;void main(){o=texture(t3,v_uv);}",
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t0,t1,t2;uniform mat3 m;void main(){vec3 y=vec3(texture(t0,v_uv).r,texture(t1,v_uv).r,texture(t2,v_uv).r);o=vec4(clamp(m*(y-vec3(0.0625,0.5,0.5)),0.0,1.0),1.0);}",
 "#version 300 es\nprecision mediump float;in mediump vec2 v_uv;out vec4 o;uniform lowp sampler2D t0,t1,t2;uniform mat3 m;void main(){vec3 y=vec3(texture(t0,v_uv).r,texture(t1,v_uv).r,texture(t2,v_uv).r);o=vec4(clamp(m*(y-vec3(0.0625,0.5,0.5)),0.0,1.0),1.0);}",
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t0;void main(){o=vec4(texture(t0,v_uv).rrr,1.0);}",
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t3;void main(){o=texelFetch(t3,ivec2(gl_FragCoord.xy),0);}",
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t0,t1,t2;uniform mat3 m;void main(){ivec2 p=ivec2(gl_FragCoord.xy);vec3 y=vec3(texelFetch(t0,p,0).r,texelFetch(t1,p/2,0).r,texelFetch(t2,p/2,0).r);o=vec4(clamp(m*(y-vec3(0.0625,0.5,0.5)),0.0,1.0),1.0);}",
 "#version 300 es\nprecision highp float;in vec2 v_uv;out vec4 o;uniform sampler2D t0,t1,t2;uniform mat3 m;void main(){ivec2 p=ivec2(gl_FragCoord.xy);vec3 y=vec3(texelFetch(t0,p,0).r,texture(t1,v_uv).r,texture(t2,v_uv).r);o=vec4(clamp(m*(y-vec3(0.0625,0.5,0.5)),0.0,1.0),1.0);}",
 };
 int k=atoi(argv[1]);GLuint p=prog(fs[k]);glUseProgram(p);
 glUniform1i(glGetUniformLocation(p,"t0"),0);glUniform1i(glGetUniformLocation(p,"t1"),1);glUniform1i(glGetUniformLocation(p,"t2"),2);glUniform1i(glGetUniformLocation(p,"t3"),3);
 float m[9]={1.16,1.16,1.16,0,-0.39,2.01,1.59,-0.81,0};glUniformMatrix3fv(glGetUniformLocation(p,"m"),1,0,m);
 glViewport(0,0,W,H);
 for(int i=0;i<3;i++){glDrawArrays(GL_TRIANGLES,0,3);glFinish();}
 double t0=now();int N=20;for(int i=0;i<N;i++){
   if(argc>4){glActiveTexture(GL_TEXTURE0);glBindTexture(GL_TEXTURE_2D,tex[0]);glTexSubImage2D(GL_TEXTURE_2D,0,0,0,tw,th,GL_RED,GL_UNSIGNED_BYTE,buf);}
   glDrawArrays(GL_TRIANGLES,0,3);glFinish();}
 printf("shader %d: %.2f ms\n",k,(now()-t0)/N*1000);}
