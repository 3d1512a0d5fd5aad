/*
 * libgit2-notls.c - skip loading the system's CA certificates.
 *
 * Debian builds libgit2 with mbedTLS and a compiled-in CA bundle that
 * git_libgit2_init() parses on every start: about 55 million instructions,
 * more than half of a whole `postrider play` (measured with callgrind; see
 * docs/robustness.md, "Speed"). postrider never uses libgit2's network
 * transports (it only reads and writes a local repository), so the
 * certificates are never needed.
 *
 * Defining mbedtls_x509_crt_parse_file here makes the dynamic linker bind
 * libgit2's call to this definition instead of libmbedx509's (symbol
 * interposition: the executable comes first in the global scope). It loads
 * nothing and reports success. Should a later version of postrider use
 * libgit2 over HTTPS, delete this file.
 */

struct mbedtls_x509_crt;

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path);

int mbedtls_x509_crt_parse_file(struct mbedtls_x509_crt *chain, const char *path)
{
	(void)chain;
	(void)path;
	return 0;
}
