// The command line of `tessera`: subcommands, their options and --help, and the mapping of
// errors to messages and exit codes (0 success, 1 a check failed or nothing could be measured,
// 2 an error in the input or the environment such as an unknown stencil, a bad size, an unknown
// device or an unreadable report, 3 an internal error, 130 interrupted). docs/cli.md says what
// the tool does under misuse.
#pragma once

namespace tessera::tools {

int run_cli(int argc, const char* const* argv);

} // namespace tessera::tools
