"""Downloaders: curl and wget. Never granted (each reaches another machine); their options
are read here so that what a download writes is named the way the program reads it
(``curl --out F``, ``curl -sSLoF``, ``wget --output-doc=F``, ``wget -P DIR``): roles
``write`` (a file written), ``into`` (the folder downloads land in), ``read`` (a file
sent or read), ``doubt`` (a file of further options the guard does not read).
"""

from __future__ import annotations

from amplifier_hooks.guard.table.options import opts, read_options

__all__ = ["CURL", "FETCHING", "WGET", "fetched_urls", "glued_values", "remote_names"]

CURL = opts(
    "-o,--output=:write --output-dir=:into -c,--cookie-jar=:write -D,--dump-header=:write "
    "--trace=:write --trace-ascii=:write --stderr=:write --libcurl=:write --etag-save=:write "
    "-T,--upload-file=:read --etag-compare=:read --netrc-file=:read --cacert=:read "
    "-K,--config=:doubt -b,--cookie= -d,--data= --data-ascii= --data-binary= --data-raw= "
    "--data-urlencode= --json= -F,--form= --form-string= -H,--header= --proxy-header= "
    "-X,--request= -A,--user-agent= -e,--referer= -u,--user= -U,--proxy-user= -x,--proxy= "
    "-E,--cert= --cert-type= --key= --key-type= --pass= --capath= --crlfile= "
    "--pinnedpubkey= --ciphers= --tls13-ciphers= --curves= --tls-max= --connect-timeout= "
    "-m,--max-time= --max-filesize= --max-redirs= --retry= --retry-delay= "
    "--retry-max-time= --limit-rate= -Y,--speed-limit= -y,--speed-time= -r,--range= "
    "-C,--continue-at= -z,--time-cond= -w,--write-out= --resolve= --connect-to= "
    "--interface= --local-port= --dns-servers= --doh-url= --noproxy= --proto= "
    "--proto-default= --proto-redir= --oauth2-bearer= --aws-sigv4= --url= --url-query= "
    "--variable= --expand-url= --unix-socket= --abstract-unix-socket= -Q,--quote= "
    "-P,--ftp-port= --mail-from= --mail-rcpt= --mail-auth= --login-options= "
    "--request-target= --socks4= --socks4a= --socks5= --socks5-hostname= --preproxy= "
    "--proxy-cacert= --proxy-cert= --proxy-key= --proxy-pass= --hsts= --alt-svc= "
    "--create-file-mode= --parallel-max= --rate= --keepalive-time= "
    "--expect100-timeout= --happy-eyeballs-timeout-ms= -t,--telnet-option= "
    "-a,--append --anyauth --basic --digest --ntlm --negotiate --compressed "
    "--compressed-ssh --create-dirs --crlf -q,--disable -f,--fail --fail-early "
    "--fail-with-body -G,--get -g,--globoff -I,--head -i,--include -k,--insecure "
    "-4,--ipv4 -6,--ipv6 -j,--junk-session-cookies -l,--list-only -L,--location "
    "--location-trusted -M,--manual -n,--netrc --netrc-optional -N,--no-buffer "
    "--no-keepalive --no-sessionid --no-progress-meter --path-as-is --post301 --post302 "
    "--post303 -#,--progress-bar -p,--proxytunnel --raw -J,--remote-header-name "
    "-O,--remote-name --remote-name-all -R,--remote-time --remove-on-error --retry-all-errors "
    "--retry-connrefused -S,--show-error -s,--silent --ssl --ssl-reqd --ssl-no-revoke "
    "--styled-output --tcp-fastopen --tcp-nodelay -1,--tlsv1 --tlsv1.0 --tlsv1.1 --tlsv1.2 "
    "--tlsv1.3 -2,--sslv2 -3,--sslv3 -0,--http1.0 --http1.1 --http2 "
    "--http2-prior-knowledge --http3 --http3-only --http0.9 --tr-encoding --trace-time "
    "-B,--use-ascii -v,--verbose -V,--version -h,--help --xattr -Z,--parallel "
    "--parallel-immediate --skip-existing --clobber --no-clobber --cert-status "
    "--false-start --ignore-content-length --suppress-connect-headers",
)
"""curl's options (it takes unique prefixes of long ones, as GNU tools do)."""

WGET = opts(
    "-O,--output-document=:write -o,--output-file=:write -a,--append-output=:write "
    "--save-cookies=:write --rejected-log=:write --warc-file=:write "
    "-P,--directory-prefix=:into -i,--input-file=:read --load-cookies=:read "
    "--post-file=:read --body-file=:read --certificate=:read --private-key=:read "
    "--ca-certificate=:read -e,--execute=:doubt --config=:doubt --use-askpass=:doubt "
    "-n= -t,--tries= -T,--timeout= --dns-timeout= --connect-timeout= --read-timeout= "
    "-w,--wait= --waitretry= -Q,--quota= --bind-address= --limit-rate= --user= "
    "--password= --http-user= --http-password= --ftp-user= --ftp-password= "
    "--proxy-user= --proxy-password= --header= --referer= -U,--user-agent= --post-data= "
    "--method= --body-data= --max-redirect= --compression= --default-page= "
    "--restrict-file-names= --prefer-family= --local-encoding= --remote-encoding= "
    "--secure-protocol= --certificate-type= --private-key-type= --ca-directory= "
    "--crl-file= --pinnedpubkey= --ciphers= --hsts-file= --backups= --progress= "
    "--report-speed= --cut-dirs= -l,--level= -A,--accept= -R,--reject= --accept-regex= "
    "--reject-regex= --regex-type= -D,--domains= --exclude-domains= --follow-tags= "
    "--ignore-tags= -I,--include-directories= -X,--exclude-directories= -B,--base= "
    "--retry-on-http-error= -V,--version -h,--help -b,--background -d,--debug -q,--quiet "
    "-v,--verbose -F,--force-html -c,--continue -N,--timestamping -S,--server-response "
    "--spider --show-progress --random-wait --no-proxy --no-dns-cache --ignore-case "
    "-4,--inet4-only -6,--inet6-only --ask-password --no-iri --unlink --xattr "
    "-x,--force-directories --protocol-directories -E,--adjust-extension --ignore-length "
    "--save-headers --no-http-keep-alive --no-cookies --keep-session-cookies "
    "--content-disposition --content-on-error --auth-no-challenge --https-only "
    "--no-check-certificate --no-hsts --no-config --no-clobber --no-verbose "
    "--no-directories --no-host-directories --no-parent --no-glob --no-passive-ftp "
    "--no-remove-listing --no-if-modified-since --no-use-server-timestamps "
    "--retry-connrefused --preserve-permissions --retr-symlinks -r,--recursive "
    "--delete-after -k,--convert-links --convert-file-only -K,--backup-converted "
    "-m,--mirror -p,--page-requisites --strict-comments --follow-ftp -H,--span-hosts "
    "-L,--relative --trust-server-names",
)
"""wget's options (getopt_long: unique prefixes; ``-nc``, ``-nv``, ``-nd``, ``-np`` are
``-n`` with a letter)."""

FETCHING = {"curl": CURL, "wget": WGET}


_SENDS = ("-F", "-d", "-T")
"""curl's short options whose value names a file it sends (``-T F``, ``-d @F``, ``-F k=@F``)."""


def glued_values(args: tuple[str, ...]) -> tuple[str, ...]:
    """The values glued to a downloader's sending options (``-Ff=@x``, ``--data=@x``)."""
    found: list[str] = []
    for arg in args:
        if arg[:2] in _SENDS and len(arg) > 2:
            found.append(arg[2:])
        elif arg.startswith("--") and "=@" in arg:
            found.append(arg.partition("=")[2])
    return tuple(found)


def remote_names(program: str, args: tuple[str, ...]) -> tuple[str, ...]:
    """The files a download names after its URL (``curl -O URL``, ``wget URL``): the
    last segment of each URL's path, in the working folder (wget's ``-P DIR``: there).
    None for ``wget -O F`` (the table names F) or a URL whose path ends in ``/``."""
    options = FETCHING.get(program)
    if options is None:
        return ()
    read = read_options(options, args)
    given = {g.opt.names[0] for g in read.given}
    if program == "curl" and not given & {"-O", "--remote-name-all"}:
        return ()
    if program == "wget" and "-O" in given:
        return ()
    into = "-P" if program == "wget" else "--output-dir"  # (curl's -P is an FTP port)
    folder = next((g.value for g in read.given if g.opt.names[0] == into and g.value), "")
    found: list[str] = []
    for word in read.operands:
        if "://" not in word:
            continue
        name = word.partition("://")[2].partition("?")[0].partition("#")[0]
        name = name.rpartition("/")[2] if "/" in name else ""
        if name and name not in (".", ".."):
            found.append(f"{folder.rstrip('/')}/{name}" if folder else name)
    return tuple(found)


def fetched_urls(program: str, args: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The URLs a download fetches (its operands, and curl's ``--url``) and the files it
    writes them into (``-o F``, ``-O F``, named after the URL); none for a program that
    is no downloader."""
    options = FETCHING.get(program)
    if options is None:
        return (), ()
    read = read_options(options, args)
    named = [g.value for g in read.given if g.opt.names[0] == "--url" and g.value]
    urls = tuple(w for w in (*read.operands, *named) if "://" in w)
    into = "-o" if program == "curl" else "-O"  # (the others write logs and headers)
    written = [g.value for g in read.given if g.opt.names[0] == into and g.value]
    return urls, (*(w for w in written if w != "-"), *remote_names(program, args))
