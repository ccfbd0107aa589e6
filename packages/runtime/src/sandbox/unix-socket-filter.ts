/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` reads it) that refuses to create unix sockets:
 * `socket(AF_UNIX, …)` fails with `EACCES`. A process that cannot create one cannot connect to any unix socket,
 * by path (ssh-agent, X11, tmux, D-Bus, PostgreSQL, MySQL, Docker, in `/tmp`, `/run` or anywhere else, created
 * before or during the call) or abstract. `socketpair` stays allowed (it connects two new ends to each other only:
 * pipes between a process and its children are made that way). `io_uring_setup` is refused too (io_uring can
 * create sockets without the `socket` system call), as are the x32 system calls and, for 32-bit x86 programs, the
 * multiplexed `socketcall(SYS_SOCKET)`, whose arguments a filter cannot read.
 */

/** `AUDIT_ARCH_*` and system-call numbers of one architecture's native and compatible ABIs. */
interface ArchitectureNumbers {
  arch: number;
  socket: number;
  ioUringSetup: number;
  /** `socketcall` (only 32-bit x86 multiplexes socket calls through it). */
  socketcall?: number;
  /** Numbers at or above this one belong to another ABI (x32 on x86-64). */
  foreignAbove?: number;
}

const ARCHITECTURES: Readonly<Record<string, readonly ArchitectureNumbers[]>> = {
  x64: [
    { arch: 0xc000003e, socket: 41, ioUringSetup: 425, foreignAbove: 0x40000000 },
    { arch: 0x40000003, socket: 359, ioUringSetup: 425, socketcall: 102 },
  ],
  arm64: [
    { arch: 0xc00000b7, socket: 198, ioUringSetup: 425 },
    { arch: 0x40000028, socket: 281, ioUringSetup: 425 },
  ],
};

const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_GREATER_EQUAL = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000; // SECCOMP_RET_ALLOW
const ERRNO = 0x00050000; // SECCOMP_RET_ERRNO
const EACCES = 13;
const ENOSYS = 38;
const AF_UNIX = 1;
const SYS_SOCKET = 1;
/** Offsets in `struct seccomp_data`: nr, arch, args[0] (low 32 bits: both architectures are little-endian). */
const NR = 0;
const ARCH = 4;
const FIRST_ARGUMENT = 16;

interface Instruction {
  code: number;
  jumpIfTrue: number;
  jumpIfFalse: number;
  value: number;
}

/** The filter for `architecture` (`process.arch`), or `undefined` when there is none for it (then say so). */
export function unixSocketFilter(architecture: string = process.arch): Buffer | undefined {
  const abis = ARCHITECTURES[architecture];
  if (!abis) return undefined;
  const program: Instruction[] = [];
  const at = (code: number, value: number, jumpIfTrue = 0, jumpIfFalse = 0) =>
    program.push({ code, jumpIfTrue, jumpIfFalse, value });
  for (const abi of abis) {
    const block = abiBlock(abi);
    at(LOAD_WORD, ARCH);
    at(JUMP_EQUAL, abi.arch, 0, block.length);
    program.push(...block);
  }
  at(RETURN, ALLOW);
  return encode(program);
}

/** Checks for one ABI; every path ends in a return, so the next block is reached only for another ABI. */
function abiBlock(abi: ArchitectureNumbers): Instruction[] {
  const block: Instruction[] = [];
  const at = (code: number, value: number, jumpIfTrue = 0, jumpIfFalse = 0) =>
    block.push({ code, jumpIfTrue, jumpIfFalse, value });
  at(LOAD_WORD, NR);
  if (abi.foreignAbove !== undefined) {
    at(JUMP_GREATER_EQUAL, abi.foreignAbove, 0, 1);
    at(RETURN, ERRNO | ENOSYS);
  }
  at(JUMP_EQUAL, abi.ioUringSetup, 0, 1);
  at(RETURN, ERRNO | ENOSYS);
  if (abi.socketcall !== undefined) {
    at(JUMP_EQUAL, abi.socketcall, 0, 4);
    at(LOAD_WORD, FIRST_ARGUMENT);
    at(JUMP_EQUAL, SYS_SOCKET, 0, 1);
    at(RETURN, ERRNO | EACCES);
    at(RETURN, ALLOW);
  }
  at(JUMP_EQUAL, abi.socket, 0, 3);
  at(LOAD_WORD, FIRST_ARGUMENT);
  at(JUMP_EQUAL, AF_UNIX, 0, 1);
  at(RETURN, ERRNO | EACCES);
  at(RETURN, ALLOW);
  return block;
}

/** `struct sock_filter[]`: u16 code, u8 jt, u8 jf, u32 k, little-endian (the architectures above). */
function encode(program: readonly Instruction[]): Buffer {
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(instruction.jumpIfTrue, index * 8 + 2);
    bytes.writeUInt8(instruction.jumpIfFalse, index * 8 + 3);
    bytes.writeUInt32LE(instruction.value >>> 0, index * 8 + 4);
  });
  return bytes;
}
