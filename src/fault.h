/*
 * fault.h - crash points, for the tests of crash safety (architecture,
 * 1; docs/repository.md, "Crash safety"): with POSTRIDER_FAULT=NAME in
 * the environment, the run that reaches fault_point("NAME") kills itself
 * there with SIGKILL, as a crash, a power cut or the OOM killer would;
 * POSTRIDER_FAULT=NAME@N at the Nth time it reaches that point (a run
 * that makes several commits). Without the variable, or for any other
 * name, nothing happens. tests/e2e/t-crash.sh kills a turn at each point
 * in turn and checks the game is at the old commit or the new one and no
 * order or mail is lost: the kill comes at a phase of the turn, however
 * fast or slow the machine.
 *
 * The points, in the order a commit that mails passes them (turn.c, and
 * a peer copy's own commit in peer.c; "head-moved": a peer copy that
 * accepted the other's commit, before its answer):
 *   commit-prepared  the commit's objects written, the branch not moved
 *   mail-staged      its mail written to the outbox's tmp/
 *   ref-moved        the branch on the new commit (repo.c), the work tree
 *                    not yet checked out (its marker left, repository.md)
 *   branch-moved     the branch on the new commit, the mail still in tmp/
 *   mail-released    the mail in the outbox's new/, not yet sent
 *   head-moved       (peer) the other's commit accepted, nothing answered
 *
 * The environment is read once, at the first call; call it from the main
 * thread only.
 */
#ifndef POSTRIDER_FAULT_H
#define POSTRIDER_FAULT_H

void fault_point(const char *name);

#endif
