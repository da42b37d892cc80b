#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/cec.h>
#include <linux/cec-funcs.h>

/// The kernel's CEC API (linux/cec.h): its ioctls are function-like macros, which Swift does not import, so each
/// is a small inline function here. Each returns ioctl's result (-1 and errno on failure).
static inline int kiosk_cec_g_caps(int fd, struct cec_caps *caps) { return ioctl(fd, CEC_ADAP_G_CAPS, caps); }
static inline int kiosk_cec_g_phys_addr(int fd, uint16_t *pa) { return ioctl(fd, CEC_ADAP_G_PHYS_ADDR, pa); }
static inline int kiosk_cec_g_log_addrs(int fd, struct cec_log_addrs *la) { return ioctl(fd, CEC_ADAP_G_LOG_ADDRS, la); }
static inline int kiosk_cec_s_log_addrs(int fd, struct cec_log_addrs *la) { return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, la); }
static inline int kiosk_cec_transmit(int fd, struct cec_msg *msg) { return ioctl(fd, CEC_TRANSMIT, msg); }
static inline int kiosk_cec_receive(int fd, struct cec_msg *msg) { return ioctl(fd, CEC_RECEIVE, msg); }
static inline int kiosk_cec_dqevent(int fd, struct cec_event *ev) { return ioctl(fd, CEC_DQEVENT, ev); }
static inline int kiosk_cec_s_mode(int fd, uint32_t mode) { return ioctl(fd, CEC_S_MODE, &mode); }
static inline int kiosk_cec_g_connector_info(int fd, struct cec_connector_info *ci) {
    return ioctl(fd, CEC_ADAP_G_CONNECTOR_INFO, ci);
}

/// The first `len` bytes of a message and its length (cec_msg's msg[] is a C array Swift sees as a tuple).
static inline void kiosk_cec_msg_set(struct cec_msg *m, const uint8_t *bytes, uint32_t len) {
    memset(m, 0, sizeof(*m));
    if (len > CEC_MAX_MSG_SIZE) len = CEC_MAX_MSG_SIZE;
    memcpy(m->msg, bytes, len);
    m->len = len;
}
static inline uint32_t kiosk_cec_msg_get(const struct cec_msg *m, uint8_t *bytes) {
    uint32_t len = m->len > CEC_MAX_MSG_SIZE ? CEC_MAX_MSG_SIZE : m->len;
    memcpy(bytes, m->msg, len);
    return len;
}
/// The adapter's name and driver (C strings in cec_caps).
static inline const char *kiosk_cec_caps_name(const struct cec_caps *c) { return c->name; }
static inline const char *kiosk_cec_caps_driver(const struct cec_caps *c) { return c->driver; }

/// Claims one Playback Device logical address with OSD name `name` and vendor id `vendor`, CEC 1.4
/// (the CEC 2.0 operands are left to the kernel's defaults).
static inline void kiosk_cec_playback_log_addrs(struct cec_log_addrs *la, const char *name, uint32_t vendor) {
    memset(la, 0, sizeof(*la));
    la->cec_version = CEC_OP_CEC_VERSION_1_4;
    la->vendor_id = vendor;
    la->num_log_addrs = 1;
    la->log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    la->primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    la->all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    strncpy(la->osd_name, name, sizeof(la->osd_name) - 1);
}
static inline uint8_t kiosk_cec_log_addr(const struct cec_log_addrs *la) { return la->num_log_addrs ? la->log_addr[0] : CEC_LOG_ADDR_INVALID; }
