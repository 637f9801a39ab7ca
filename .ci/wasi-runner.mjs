// Runs a wasm32-wasip1 program under node's `node:wasi` (node 20+): the cargo runner for
// `cargo test --target wasm32-wasip1` (set by .ci/wasm.sh through
// CARGO_TARGET_WASM32_WASIP1_RUNNER, so native runs are unaffected).
//
//   node --no-warnings .ci/wasi-runner.mjs program.wasm [args...]
//
// The program gets its arguments (argv[0] is the .wasm path, as cargo gives it), the whole
// environment, and these directories, each under its own absolute host path (WASI resolves an
// absolute path through the preopened directory it lies in) and the current one also as `.`:
// the current directory (cargo runs test binaries in the package's directory), the system
// temporary directory, and any listed in WASI_RUNNER_DIRS (separated by `:`). The process exits
// with the program's exit code; a trap (a Rust panic aborts on wasm32-wasip1, which is
// `unreachable`) prints the error and exits with 134, as an abort does natively.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [program, ...args] = process.argv.slice(2);
if (!program) {
    process.stderr.write('usage: wasi-runner.mjs program.wasm [args...]\n');
    process.exit(2);
}

const dirs = [process.cwd(), tmpdir(), ...(process.env.WASI_RUNNER_DIRS ?? '').split(':')]
    .filter((dir) => dir && existsSync(dir))
    .map((dir) => resolve(dir));
const preopens = { '.': process.cwd() };
for (const dir of dirs) {
    preopens[dir] = dir;
}

const wasi = new WASI({
    version: 'preview1',
    args: [program, ...args],
    env: process.env,
    preopens,
    returnOnExit: true,
});

let code;
try {
    const module = await WebAssembly.compile(await readFile(program));
    const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
    code = wasi.start(instance);
} catch (error) {
    process.stderr.write(`wasi-runner: ${program}: ${error?.stack ?? error}\n`);
    code = 134;
}
process.exitCode = code;
