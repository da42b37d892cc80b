#include <libinput.h>
#include <libudev.h>
#include <linux/input-event-codes.h>
