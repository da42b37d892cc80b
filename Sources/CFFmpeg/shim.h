#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/display.h>
#include <libavutil/spherical.h>
#include <libavutil/stereo3d.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/* Macros Swift cannot import, as static inline functions. */
static inline int kiosk_averror(int e) { return AVERROR(e); }
static inline int kiosk_averror_eof(void) { return AVERROR_EOF; }
static inline int kiosk_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int64_t kiosk_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational kiosk_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int kiosk_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int kiosk_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int kiosk_codec_flag_qscale(void) { return AV_CODEC_FLAG_QSCALE; }
static inline int kiosk_qp2lambda(void) { return FF_QP2LAMBDA; }
static inline int kiosk_stereo3d_flag_invert(void) { return AV_STEREO3D_FLAG_INVERT; }
