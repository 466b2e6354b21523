/*
 * The subcommands. How to add one:
 *  1. write src/cmd-NAME.c with "int cmd_NAME(int argc, char **argv)"
 *     that parses its options into a struct, then runs; usage[] at file
 *     scope, -h/--help prints it and returns 0;
 *  2. declare it here and add it to commands[] in main.c;
 *  3. add the file to Makefile.am, document it in README.md and give it a
 *     golden test under tests/golden/.
 * A command returns an exit code from enum jitsym_exit (msg.h).
 */
#ifndef JITSYM_CMDS_H
#define JITSYM_CMDS_H

int cmd_fold(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_sources(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pprof(int argc, char **argv);

#endif
