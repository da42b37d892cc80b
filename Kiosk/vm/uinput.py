#!/usr/bin/env python3
"""Synthetic input for the VM test: a multitouch touchscreen and a keyboard through /dev/uinput (pure Python:
fcntl + struct), with the udev database entries libinput needs written by hand (the guest runs no udevd).

usage: uinput.py WIDTH HEIGHT NODES_FILE FIFO
Creates the devices (touch axes 0..WIDTH-1 and 0..HEIGHT-1, so a point in pixels is a point on the screen),
writes /run/udev/data/cMAJ:MIN for each event node, writes "TOUCH_NODE KEYBOARD_NODE" to NODES_FILE, then reads
commands from FIFO, one a line, until `quit`:
  key CODE                          press and release an evdev key
  tap X Y                           one finger down and up
  doubletap X Y                     two taps 120 ms apart
  drag X0 Y0 X1 Y1 SECONDS HOLD     one finger from (X0,Y0) to (X1,Y1), held still HOLD seconds before lifting
After each command it appends `done N` to NODES_FILE.done.
"""
import fcntl
import os
import struct
import sys
import time

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
BTN_TOUCH = 0x14a
ABS_X, ABS_Y = 0, 1
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2f, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 1
BUS_VIRTUAL = 0x06


def ioc(direction, nr, size):
    return (direction << 30) | (size << 16) | (ord('U') << 8) | nr


UI_SET_EVBIT = ioc(1, 100, 4)
UI_SET_KEYBIT = ioc(1, 101, 4)
UI_SET_ABSBIT = ioc(1, 103, 4)
UI_SET_PROPBIT = ioc(1, 110, 4)
UI_DEV_CREATE = ioc(0, 1, 0)
UI_DEV_DESTROY = ioc(0, 2, 0)
UI_DEV_SETUP = ioc(1, 3, 92)      # struct uinput_setup: input_id (8) + name[80] + ff_effects_max (4)
UI_ABS_SETUP = ioc(1, 4, 28)      # struct uinput_abs_setup: code (2) + pad (2) + input_absinfo (24)


def ui_get_sysname(length):
    return ioc(2, 44, length)


class Device:
    def __init__(self, name, product, touch, width, height):
        self.fd = os.open('/dev/uinput', os.O_WRONLY | os.O_NONBLOCK)
        if touch:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
            fcntl.ioctl(self.fd, UI_SET_KEYBIT, BTN_TOUCH)
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_ABS)
            fcntl.ioctl(self.fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
            for code, maximum in [(ABS_X, width - 1), (ABS_Y, height - 1), (ABS_MT_SLOT, 9),
                                  (ABS_MT_POSITION_X, width - 1), (ABS_MT_POSITION_Y, height - 1),
                                  (ABS_MT_TRACKING_ID, 65535)]:
                fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
                resolution = 4 if code in (ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y) else 0
                # code, pad, then input_absinfo: value, minimum, maximum, fuzz, flat, resolution
                fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack('HHiiiiii', code, 0, 0, 0, maximum, 0, 0, resolution))
        else:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
            for k in range(1, 0x2ff):
                if k < 0x100 or k >= 0x160:  # keys, not the mouse/joystick button ranges
                    fcntl.ioctl(self.fd, UI_SET_KEYBIT, k)
        setup = struct.pack('HHHH80sI', BUS_VIRTUAL, 0x1234, product, 1, name.encode(), 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        buf = bytearray(64)
        fcntl.ioctl(self.fd, ui_get_sysname(len(buf)), buf)
        sysname = buf.split(b'\0')[0].decode()
        sysdir = f'/sys/devices/virtual/input/{sysname}'
        self.node = None
        for _ in range(100):
            events = [e for e in os.listdir(sysdir) if e.startswith('event')] if os.path.isdir(sysdir) else []
            if events and os.path.exists(f'/dev/input/{events[0]}'):
                self.event = events[0]
                self.node = f'/dev/input/{events[0]}'
                break
            time.sleep(0.02)
        if self.node is None:
            raise SystemExit(f'uinput.py: no event node for {name} under {sysdir}')
        self.devnum = open(f'{sysdir}/{self.event}/dev').read().strip()

    def udev_entry(self, kind_lines, properties=None):
        """The udev database entry libinput reads (what udevd's input_id builtin would have written), with more
        `properties` (a rule's, e.g. WL_OUTPUT)."""
        os.makedirs('/run/udev/data', exist_ok=True)
        usec = int(time.monotonic() * 1e6)
        extra = ''.join(f'E:{k}={v}\n' for k, v in (properties or {}).items())
        with open(f'/run/udev/data/c{self.devnum}', 'w') as f:
            f.write(f'I:{usec}\nE:ID_INPUT=1\n' + ''.join(f'E:{k}=1\n' for k in kind_lines) + extra + 'G:seat\nQ:seat\nV:1\n')

    def emit(self, *events):
        data = b''.join(struct.pack('llHHi', 0, 0, t, c, v) for t, c, v in events)
        os.write(self.fd, data + struct.pack('llHHi', 0, 0, EV_SYN, SYN_REPORT, 0))


class Finger:
    def __init__(self, dev):
        self.dev = dev
        self.tracking = 100

    def down(self, x, y):
        self.tracking += 1
        self.dev.emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, self.tracking),
                      (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y),
                      (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y))

    def move(self, x, y):
        self.dev.emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y),
                      (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y))

    def up(self):
        self.dev.emit((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0))


def main():
    width, height, nodes_file, fifo = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    touch = Device('kiosk-vm touchscreen', 1, True, width, height)
    keys = Device('kiosk-vm keyboard', 2, False, width, height)
    # UINPUT_TOUCH_OUTPUT=CONNECTOR: the touchscreen's WL_OUTPUT, as a udev rule would set it for a panel's touch
    output = os.environ.get('UINPUT_TOUCH_OUTPUT')
    touch.udev_entry(['ID_INPUT_TOUCHSCREEN'], {'WL_OUTPUT': output} if output else None)
    keys.udev_entry(['ID_INPUT_KEY', 'ID_INPUT_KEYBOARD'])
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    with open(nodes_file + '.tmp', 'w') as f:
        f.write(f'{touch.node} {keys.node}\n')
    os.rename(nodes_file + '.tmp', nodes_file)
    finger = Finger(touch)
    n = 0
    while True:
        with open(fifo) as f:
            for line in f:
                w = line.split()
                if not w:
                    continue
                if w[0] == 'quit':
                    os.close(touch.fd)
                    os.close(keys.fd)
                    return
                if w[0] == 'key':
                    code = int(w[1], 0)
                    keys.emit((EV_KEY, code, 1))
                    time.sleep(0.05)
                    keys.emit((EV_KEY, code, 0))
                elif w[0] in ('tap', 'doubletap'):
                    x, y = int(w[1]), int(w[2])
                    for i in range(2 if w[0] == 'doubletap' else 1):
                        finger.down(x, y)
                        time.sleep(0.06)
                        finger.up()
                        time.sleep(0.12)
                elif w[0] == 'drag':
                    x0, y0, x1, y1, secs, hold = int(w[1]), int(w[2]), int(w[3]), int(w[4]), float(w[5]), float(w[6])
                    steps = max(2, int(secs / 0.01))
                    finger.down(x0, y0)
                    for i in range(1, steps + 1):
                        time.sleep(secs / steps)
                        finger.move(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps))
                    time.sleep(hold)
                    finger.up()
                n += 1
                with open(nodes_file + '.done', 'a') as d:
                    d.write(f'done {n} {line.strip()}\n')


if __name__ == '__main__':
    main()
