/**
 * What `consult-proxy` and `consult-sandbox` do with their arguments: both are configured from
 * the environment, so `--help` (or `-h`) prints the help and exits 0 without starting anything,
 * and any other argument is refused with exit code 2 and the help.
 */
export function helpOrNothing(command: string, help: string, argv = process.argv.slice(2)): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  if (argv.length > 0) {
    console.error(
      `${command}: unknown argument "${argv[0]}"; it is configured from the environment.\n\n${help}`,
    );
    process.exit(2);
  }
}
