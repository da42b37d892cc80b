// Uploading a 1920x1080 RGBA frame on llvmpipe: glTexSubImage2D from client memory against through a mapped
// pixel-unpack buffer (PBO), each waited for (glFinish), 40 times. docs/performance.md quotes it.
//   gcc -O2 Kiosk/tools/gles-upload-cost.c -o /tmp/gles-upload-cost -lEGL -lGLESv2
//   LIBGL_ALWAYS_SOFTWARE=1 /tmp/gles-upload-cost
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(){
 EGLDisplay d=eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA,EGL_DEFAULT_DISPLAY,0);eglInitialize(d,0,0);
 EGLint ca[]={EGL_RENDERABLE_TYPE,EGL_OPENGL_ES3_BIT,EGL_NONE};EGLConfig c;EGLint n;eglChooseConfig(d,ca,&c,1,&n);eglBindAPI(EGL_OPENGL_ES_API);
 EGLint cx[]={EGL_CONTEXT_MAJOR_VERSION,3,EGL_NONE};EGLContext ctx=eglCreateContext(d,c,EGL_NO_CONTEXT,cx);eglMakeCurrent(d,EGL_NO_SURFACE,EGL_NO_SURFACE,ctx);
 int W=1920,H=1080;size_t sz=(size_t)W*H*4;unsigned char*buf=malloc(sz);for(size_t i=0;i<sz;i++)buf[i]=i*7;
 GLuint t;glGenTextures(1,&t);glBindTexture(GL_TEXTURE_2D,t);glTexImage2D(GL_TEXTURE_2D,0,GL_RGBA8,W,H,0,GL_RGBA,GL_UNSIGNED_BYTE,buf);
 GLuint pbo;glGenBuffers(1,&pbo);glBindBuffer(GL_PIXEL_UNPACK_BUFFER,pbo);glBufferData(GL_PIXEL_UNPACK_BUFFER,sz,0,GL_STREAM_DRAW);glBindBuffer(GL_PIXEL_UNPACK_BUFFER,0);
 int N=40;double a=0,b=0;
 for(int r=0;r<N;r++){
  double t0=now();glTexSubImage2D(GL_TEXTURE_2D,0,0,0,W,H,GL_RGBA,GL_UNSIGNED_BYTE,buf);glFinish();a+=now()-t0;
  t0=now();glBindBuffer(GL_PIXEL_UNPACK_BUFFER,pbo);void*p=glMapBufferRange(GL_PIXEL_UNPACK_BUFFER,0,sz,GL_MAP_WRITE_BIT|GL_MAP_INVALIDATE_BUFFER_BIT);memcpy(p,buf,sz);glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER);
  glTexSubImage2D(GL_TEXTURE_2D,0,0,0,W,H,GL_RGBA,GL_UNSIGNED_BYTE,0);glBindBuffer(GL_PIXEL_UNPACK_BUFFER,0);glFinish();b+=now()-t0;}
 printf("1080p RGBA upload: client memory %.2f ms, through a PBO %.2f ms\n",a/N*1000,b/N*1000);}
