/*
 * The subcommands. How to add one:
 *  1. write src/command/cmd-NAME.c: its usage[] prose and its option table
 *     (option.h: one row an option, from which getopt, --help and jitsym.1
 *     are made; CMD_OPTION_SHARED rows for the shared options it takes) at
 *     file scope, a struct of its options and writer, the hooks of a
 *     struct command (command.h: how it writes, whether
 *     its sample hook may run on another thread: sample_anywhere, when it
 *     reads only its resolved_sample, handoff.h) and
 *     "int cmd_NAME(int argc, char **argv)" calling command__run();
 *  2. declare it here and add it to commands[] in main.c;
 *  3. add the file to Makefile.am, document it in README.md and give it a
 *     golden test under tests/golden/.
 * command__run() parses, opens the output, runs the session and returns
 * the exit code (enum jitsym_exit, msg.h), the same way for every command.
 */
#ifndef JITSYM_CMDS_H
#define JITSYM_CMDS_H

int cmd_fold(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_sources(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_tiers(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_archive(int argc, char **argv);

#endif
