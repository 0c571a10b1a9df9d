#!/usr/bin/env python3
"""rel_to_rela.py IN OUT — rewrite every SHT_REL section of a code section
of ELF64 little-endian object IN into the form old LLVM wrote (issue 25
item 7): an SHT_RELA section named ".rela<section>" whose entries have
type 0 (R_BPF_NONE), the same offsets and symbols, addend 0. The new
entries and a new section name table are appended; the section headers
are updated in place."""
import struct
import sys

SHT_REL, SHT_RELA, SHF_EXECINSTR = 9, 4, 4


def main(src, dst):
    b = bytearray(open(src, 'rb').read())
    if b[:4] != b'\x7fELF' or b[4] != 2 or b[5] != 1:
        sys.exit(f'{src}: not an ELF64 little-endian object')
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    hdr = lambda i: shoff + i * shentsize
    secs = [list(struct.unpack_from('<IIQQQQIIQQ', b, hdr(i))) for i in range(shnum)]
    strtab = secs[shstrndx]
    names = bytearray(b[strtab[4]:strtab[4] + strtab[5]])
    name = lambda off: names[off:names.index(b'\0', off)].decode()
    done = 0
    for i, s in enumerate(secs):
        if s[1] != SHT_REL or not secs[s[7]][2] & SHF_EXECINSTR:
            continue
        rela = bytearray()
        for k in range(s[5] // 16):
            off, info = struct.unpack_from('<QQ', b, s[4] + k * 16)
            rela += struct.pack('<QQq', off, (info >> 32) << 32, 0)
        while len(b) % 8:
            b.append(0)
        s[4], s[5], s[1], s[9] = len(b), len(rela), SHT_RELA, 24
        b += rela
        s[0] = len(names)
        names += ('.rela' + name(secs[s[7]][0])).encode() + b'\0'
        done += 1
    if not done:
        sys.exit(f'{src}: no relocation section of code to rewrite')
    strtab[4], strtab[5] = len(b), len(names)
    b += names
    for i, s in enumerate(secs):
        struct.pack_into('<IIQQQQIIQQ', b, hdr(i), *s)
    open(dst, 'wb').write(b)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: rel_to_rela.py IN OUT')
    main(sys.argv[1], sys.argv[2])
