"""The names of R the token reader knows (`lexnames` builds R's table from them): calls
with an effect, and names that only compute, print, or run the project's own tools.

A name is added only when what it does is known. The project's tools (its tests, lint,
formatting, documents, pipeline) are quiet as their shell spellings are: they run the
project's code, which the host's own prompt judges, and reach no place the call names.
A call that publishes, deploys, sends or deletes on a service is not here: it keeps the
code asked.
"""

from __future__ import annotations

__all__ = ["R_CALLS", "R_QUIET"]

# fmt: off
R_CALLS = {
    "unlink": "delete-tree", "file.remove": "delete", "file.rename": "move",
    "file.copy": "copy", "writeLines": "write-second", "cat": "quiet", "readLines": "read",
    "readRDS": "read", "read.csv": "read", "read.table": "read", "read.delim": "read",
    "readr::read_csv": "read", "readr::read_tsv": "read", "read_csv": "read",
    "haven::read_sav": "read", "haven::read_dta": "read", "haven::read_sas": "read",
    "arrow::read_parquet": "read", "arrow::read_feather": "read", "readxl::read_excel": "read",
    "yaml::read_yaml": "read", "jsonlite::read_json": "read", "readline": "quiet",
    "system": "run", "system2": "run", "shell": "run", "download.file": "network",
    "url": "network", "httr::GET": "network", "httr::POST": "network",
    "curl::curl_fetch_memory": "network", "eval": "eval", "parse": "eval", "source": "eval",
    "evalq": "eval", "dir.create": "mkdir", "saveRDS": "write", "write.csv": "write",
    "install.packages": "install", "pak::pkg_install": "install",
    "BiocManager::install": "install", "renv::install": "install",
    "fs::file_delete": "delete", "fs::dir_delete": "delete-tree",
}

R_QUIET = frozenset({
    # the language's words and constants
    ".libPaths", "FALSE", "NA", "NULL", "TRUE", "Inf", "NaN", "else", "for", "function",
    "if", "in", "while", "repeat", "break", "next", "return", "pi", "letters", "LETTERS",
    "mtcars", "iris",
    # computing and printing
    "R.home", "R.version", "R.version.string", "R.Version", "Sys.Date", "Sys.info", "Sys.time",
    "abs", "aggregate", "all", "all.equal", "any", "anova", "apply", "as.character",
    "as.Date", "as.integer", "as.logical", "as.numeric", "basename", "c", "capabilities",
    "cbind", "ceiling", "character", "citation", "class", "coef", "colMeans", "colnames",
    "colSums", "cor", "cumsum", "data.frame", "dim", "dir.exists", "dirname", "endsWith",
    "exp", "factor", "file.exists", "file.info", "file.size", "floor", "format", "formatC",
    "getOption", "getRversion", "getwd", "glm", "grepl", "gsub", "head", "identical",
    "identity", "ifelse", "integer", "interactive", "invisible", "is.na", "is.null",
    "is.numeric", "isFALSE", "isTRUE", "lapply", "length", "lengths", "levels", "library",
    "list", "list.dirs", "list.files", "lm", "log", "logical", "mapply", "matrix", "max",
    "mean", "median", "merge", "message", "min", "names", "nchar", "ncol", "nlevels",
    "nrow", "numeric", "nzchar", "old.packages", "installed.packages", "order",
    "packageVersion", "paste", "paste0", "pmax", "pmin", "predict", "print", "prop.table",
    "q", "quantile", "quit", "range", "rbind", "rep", "require", "requireNamespace", "rev",
    "rnorm", "round", "rowMeans", "rownames", "rowSums", "runif", "sample", "sapply",
    "scale", "sd", "seq", "seq_along", "seq_len", "sessionInfo", "set.seed", "setNames",
    "signif", "sort", "split", "sprintf", "sqrt", "startsWith", "stop", "stopifnot", "str",
    "strsplit", "sub", "subset", "substr", "sum", "summary", "suppressMessages",
    "suppressPackageStartupMessages", "suppressWarnings", "system.time", "t.test", "table",
    "tail", "tempdir", "toString", "tolower", "toupper", "trimws", "tryCatch", "typeof",
    "unique", "unlist", "vapply", "var", "vector", "version", "warning", "which",
    "parallel::detectCores", "tools::file_ext", "utils::head", "utils::str",
    # tidyverse verbs on data already read
    "dplyr::glimpse", "glimpse", "count", "filter", "mutate", "summarise", "summarize",
    "group_by", "ungroup", "select", "arrange", "n", "pull", "distinct", "rename",
    "left_join", "inner_join", "tibble", "as_tibble", "show_query", "dbplyr::lazy_frame",
    "dbplyr::simulate_postgres", "skimr::skim", "bench::mark", "fs::dir_tree", "fs::dir_ls",
    "fs::file_exists", "gert::git_status", "gert::git_diff_patch", "gert::git_log",
    "gert::git_diff", "odbc::odbcListDrivers",
    # the project's own tools: tests, checks, lint, format, documents, its pipeline
    "covr::package_coverage", "covr::report", "devtools::build", "devtools::check",
    "devtools::document", "devtools::load_all", "devtools::test", "devtools::spell_check",
    "devtools::build_readme", "lintr::lint", "lintr::lint_package", "lintr::lint_dir",
    "rcmdcheck::rcmdcheck", "remotes::install_deps", "renv::restore", "renv::snapshot",
    "renv::status", "renv::dependencies", "rmarkdown::render", "roxygen2::roxygenise",
    "styler::style_file", "styler::style_pkg", "styler::style_dir", "testthat::test_dir",
    "testthat::test_local", "testthat::test_file", "shinytest2::test_app", "shiny::runTests",
    "shiny::runApp", "knitr::purl", "knitr::knit", "quarto::quarto_render",
    "bookdown::render_book", "pkgdown::build_site", "pak::local_install",
    "usethis::use_test", "usethis::use_r", "usethis::use_version", "usethis::use_testthat",
    "targets::tar_make", "targets::tar_manifest", "targets::tar_outdated",
    "targets::tar_read", "targets::tar_load", "targets::tar_invalidate", "targets::tar_meta",
    "targets::tar_validate", "targets::tar_errored", "targets::tar_progress",
    "targets::tar_visnetwork", "drake::r_make", "drake::r_outdated",
    # a deployment's records and logs, read
    "rsconnect::deployments", "rsconnect::accounts", "rsconnect::showLogs",
    "rsconnect::appDependencies", "rsconnect::writeManifest", "rsconnect::applications",
    "rsconnect::listDeploymentFiles", "rsconnect::showUsage", "rsconnect::showProperties",
})
# fmt: on
