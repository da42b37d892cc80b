#!/usr/bin/env python3
"""Writes the plain ELF vmlinux held XZ-compressed inside a bzImage, so QEMU can boot it through PVH
(no in-guest decompression, which is slow under TCG).  usage: extract_vmlinux.py VMLINUZ VMLINUX"""
import lzma
import sys

XZ_MAGIC = b'\xfd7zXZ\x00'


def main(src, dst):
    data = open(src, 'rb').read()
    pos = data.find(XZ_MAGIC)
    while pos >= 0:
        try:
            out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[pos:])
            if out[:4] == b'\x7fELF':
                with open(dst, 'wb') as f:
                    f.write(out)
                return 0
        except lzma.LZMAError:
            pass
        pos = data.find(XZ_MAGIC, pos + 1)
    sys.exit(f'extract_vmlinux: no XZ-compressed ELF kernel in {src}')


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
