import { benchCi, printCi } from '/work/main/test/bench/ci';
process.on('uncaughtException', (e) => { console.error('UNCAUGHT', e); });
benchCi({ traces: Number(process.env.CI_BENCH_TRACES ?? 40) }).then(printCi, (e) => { console.error('BENCH ERROR', e); });
