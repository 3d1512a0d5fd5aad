/*
 * trace.h - where a run's time goes, for whoever profiles postrider: with
 * POSTRIDER_TRACE_PERF set in the environment, trace_perf("what") prints
 * on stderr the milliseconds since main() began, the CPU time of the
 * calling thread so far, and what has just been done ("perf:    7.512 ms
 *    6.904 ms CPU  game opened"); without it, nothing. make bench puts
 * one traced turn in bench/results.md and takes the map's share of a
 * turn from the CPU times. Safe to call from any thread.
 */
#ifndef POSTRIDER_TRACE_H
#define POSTRIDER_TRACE_H

/* The first call (main()'s) sets the origin. */
void trace_perf(const char *what);

#endif
