#!/usr/bin/python3
"""A stand-in for logind's org.freedesktop.login1 on a private bus, for LogindTests.

Usage: fake_login1.py BUS_ADDRESS LOG_FILE DEVICE...
One session, whatever id is asked for (a developer's own session id comes from the cgroup), with TakeControl/ReleaseControl/TakeDevice/ReleaseDevice. TakeDevice opens the
DEVICE whose (major, minor) was asked for (others: DeviceNotFound; before TakeControl: NotInControl) and
returns its descriptor. Every call is appended to LOG_FILE; "ready" once the name is owned.
"""
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

address, log_path, *devices = sys.argv[1:]
known = {(os.major(os.stat(d).st_rdev), os.minor(os.stat(d).st_rdev)): d for d in devices}
session_path = "/org/freedesktop/login1/session/fake"


def log(line):
    with open(log_path, "a") as f:
        f.write(line + "\n")


class Error(dbus.DBusException):
    def __init__(self, name, text):
        super().__init__(text, name="org.freedesktop.login1." + name)


class Manager(dbus.service.Object):
    @dbus.service.method("org.freedesktop.login1.Manager", in_signature="s", out_signature="o")
    def GetSession(self, sid):
        log("GetSession")
        return dbus.ObjectPath(session_path)


class Session(dbus.service.Object):
    controlled = False

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="b", out_signature="")
    def TakeControl(self, force):
        log("TakeControl %s" % bool(force))
        self.controlled = True

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="", out_signature="")
    def ReleaseControl(self):
        log("ReleaseControl")
        self.controlled = False

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="uu", out_signature="hb")
    def TakeDevice(self, major, minor):
        log("TakeDevice %d %d" % (major, minor))
        if not self.controlled:
            raise Error("NotInControl", "You are not in control of this session")
        path = known.get((int(major), int(minor)))
        if path is None:
            raise Error("DeviceNotFound", "Device %d:%d not known" % (major, minor))
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            return dbus.types.UnixFd(fd), False
        finally:
            os.close(fd)

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="uu", out_signature="")
    def ReleaseDevice(self, major, minor):
        log("ReleaseDevice %d %d" % (major, minor))


DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(address)
name = dbus.service.BusName("org.freedesktop.login1", bus)
Manager(bus, "/org/freedesktop/login1")
Session(bus, session_path)
log("ready")
GLib.MainLoop().run()
