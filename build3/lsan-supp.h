static const char lsan_suppressions[] =
	"leak:libfontconfig\n"
	"leak:libcairo\n"
	"leak:libssh2\n"
	"leak:libpcre2\n"
	"leak:git_remote_connect_ext\n"
	"";
