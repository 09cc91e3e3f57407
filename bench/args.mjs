// Command-line options of the bench scripts: `--name value` and `--name` switches, taken out of
// the argument list so that what remains are the positional arguments.
//
//   const args = benchArgs(process.argv.slice(2));
//   const runs = Number(args.option('runs', '3'));   // --runs 5
//   const strip = args.switch('strip');              // --strip
//   const [N = '10000'] = args.rest;

/** Options parsed from (and removed from) `argv`, a copy of the arguments. */
export function benchArgs(argv) {
  const rest = [...argv];
  return {
    rest,
    /** The value after `--name` (taken out with it), or `dflt` when absent or last. */
    option(name, dflt) {
      const i = rest.indexOf(`--${name}`);
      if (i < 0 || i + 1 >= rest.length) return dflt;
      const v = rest[i + 1];
      rest.splice(i, 2);
      return v;
    },
    /** Whether `--name` is present. */
    switch(name) {
      const i = rest.indexOf(`--${name}`);
      if (i >= 0) rest.splice(i, 1);
      return i >= 0;
    },
  };
}
