#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Read the allocation trampoline site table of a linked vmlinux and print
# one line per site, as objtool --alloc-tramp-list does for an object:
#
#   ADDRESS FUNC+OFF TARGET FILE:LINE FUNCTION
#
# Usage: sites.py VMLINUX

import bisect
import struct
import sys


class Elf:
    def __init__(self, path):
        self.data = open(path, 'rb').read()
        d = self.data
        if d[:4] != b'\x7fELF' or d[4] != 2:
            sys.exit(f'{path}: not a 64-bit ELF file')
        shoff, = struct.unpack_from('<Q', d, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
        self.secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
                     for i in range(shnum)]
        names = self.secs[shstrndx]
        self.secnames = [self.cstr_at(names[4] + s[0]) for s in self.secs]
        self.syms = {}
        funcs = []
        for i, s in enumerate(self.secs):
            if s[1] != 2:       # SHT_SYMTAB
                continue
            strtab = self.secs[s[6]][4]
            for off in range(s[4], s[4] + s[5], 24):
                name, info, _, shndx, value, size = struct.unpack_from('<IBBHQQ', d, off)
                name = self.cstr_at(strtab + name)
                self.syms.setdefault(name, value)
                if info & 0xf == 2 and value:   # STT_FUNC
                    funcs.append((value, size, name))
        funcs.sort()
        self.funcs = funcs
        self.func_addrs = [f[0] for f in funcs]
        self.func_by_addr = {f[0]: f[2] for f in funcs}

    def cstr_at(self, off):
        return self.data[off:self.data.index(b'\0', off)].decode()

    def offset(self, va):
        for s in self.secs:
            if s[1] == 1 and s[3] <= va < s[3] + s[5]:   # SHT_PROGBITS
                return s[4] + va - s[3]
        raise ValueError(f'address {va:#x} is in no section')

    def read(self, fmt, va):
        return struct.unpack_from(fmt, self.data, self.offset(va))

    def cstr(self, va):
        return self.cstr_at(self.offset(va)) if va else None

    def symbolize(self, va):
        i = bisect.bisect_right(self.func_addrs, va) - 1
        if i < 0:
            return f'{va:#x}'
        start, _, name = self.funcs[i]
        return f'{name}+{va - start:#x}'


def sites(elf):
    start = elf.syms['__start_alloc_tramp_sites']
    stop = elf.syms['__stop_alloc_tramp_sites']
    for va in range(start, stop, 16):
        rel = elf.read('<iiii', va)
        addr, target, tramp, tag = (va + 4 * i + r for i, r in enumerate(rel))
        _, lineno, mod, func, file = elf.read('<IIQQQ', tag)
        yield addr, target, tramp, tag, lineno, elf.cstr(mod), elf.cstr(func), elf.cstr(file)


def main():
    elf = Elf(sys.argv[1])
    for addr, target, _, _, lineno, mod, func, file in sites(elf):
        print(f'{addr:x} {elf.symbolize(addr)} {elf.func_by_addr.get(target, hex(target))} '
              f'{file}:{lineno} {func}' + (f' [{mod}]' if mod else ''))


if __name__ == '__main__':
    main()
