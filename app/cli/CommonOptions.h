#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
} // namespace CLI

namespace concorde {
class Shard;
struct AnalysisRevision;
} // namespace concorde

namespace concorde::cli {

/// Checks and options that several commands share.

/// Checks for option values, run on the text before CLI11 converts it. Their descriptions are
/// what the help shows after the default ("16–1048576"); their messages follow the option's
/// name ("--window: 5 is out of range 16–1048576").

/// A whole number from `min` to `max`. Also rejects a sign, which CLI11's own conversion to an
/// unsigned type would wrap around ("-3" as 2^64 - 3).
CLI::Validator wholeNumber(std::uint64_t min = 0, std::uint64_t max = UINT64_MAX);
/// A finite real number from `min` to `max`.
CLI::Validator realNumber(double min, double max);
/// One of `names`, which the help lists.
CLI::Validator oneOf(const std::vector<std::string>& names);

/// `--jobs N`, worker threads (default 0: every core), for every command that runs in parallel.
CLI::Option* addJobsOption(CLI::App& app, unsigned& jobs);
/// `--seed S`, the seed of a command's random draws; `help` says of which.
CLI::Option* addSeedOption(CLI::App& app, std::uint64_t& seed, const std::string& help);
/// `--shard I/N`, one part of a job spread over a cluster (build-db, label); `help` says of
/// what. The text is parsed into `shard` as it is read, so a malformed one is a usage error.
CLI::Option* addShardOption(CLI::App& app, Shard& shard, const std::string& help);
/// `--load-queue-model loads-only|through-commit`: which LQ bound a command computes
/// (AnalysisRevision::loadQueueThroughCommit), set in `analysis` as it is read; `note` ends
/// the help (e.g. what an existing database does).
CLI::Option* addLoadQueueModelOption(CLI::App& app, AnalysisRevision& analysis,
                                     const std::string& note = "");

} // namespace concorde::cli
