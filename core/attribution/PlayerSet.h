#pragma once

#include "params/CoreConfig.h"
#include "params/ParameterSpec.h"

#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

/// One player of a Shapley attribution: a parameter on its own or a named group of parameters
/// that always change together.
struct Player {
    std::string name;            ///< a parameter key for a singleton, else the group's name
    std::vector<ParamId> params; ///< ascending ParamId order, never empty

    bool operator==(const Player&) const = default;
};

/// The players of an attribution: a partition of the twenty parameters. Every parameter belongs
/// to exactly one player, so switching every player from baseline to target gives exactly the
/// target configuration — which is what makes the attributions add up to the whole CPI change.
///
/// Players are kept in canonical order: by the smallest ParamId they hold, so the order follows
/// the parameter table of docs/design.md §3 however the groups were written.
///
/// **Grouping file** (`--groups FILE` on the command line): a JSON object
/// `{"groups": {"caches": ["l1d_kb", "l1i_kb", "l2_kb"], "queues": ["lq", "sq"]}}`.
/// Rules (every violation is a bad-input ConcordeError naming the file and the group):
/// - the top level holds exactly one key, `groups`, whose value is an object;
/// - each group has a non-empty name and a non-empty array of parameter keys (strings);
/// - every key must be one of the twenty parameters, and no parameter may appear twice
///   (in one group or in two groups);
/// - parameters listed in no group become singleton players named by their key (the default,
///   Ungrouped::Singletons), so a file needs to name only the components the user cares about;
///   with Ungrouped::Error every parameter must be listed, and the error names those missing.
///   A singleton whose parameter is equal in baseline and target is a null player: it gets
///   exactly 0 and costs no evaluations (see ShapleyAttributor);
/// - player names must be unique, including the singletons' keys (a group called "rob" that does
///   not contain rob clashes with the singleton rob).
///
/// **Default groups** (defaultGroups(), ten players, so the attribution is exact — 2^10
/// coalitions): parameters are grouped when they model one mechanism that a designer sizes as a
/// unit, or when one of them means nothing without the other. Splitting such parameters
/// produces shares that depend on arbitrary min() ties (three equal front-end widths each look
/// responsible for a third) rather than on the design.
/// | player            | parameters                              | why grouped |
/// |-------------------|-----------------------------------------|-------------|
/// | window            | rob                                     | the instruction window |
/// | commit            | commit_width                            | retire bandwidth |
/// | ldst_queues       | lq, sq                                  | memory-ordering buffers, sized
/// together | | issue             | alu_issue, fp_issue, ls_issue           | scheduler issue ports
/// | | ldst_pipes        | ls_pipes, load_pipes                    | the data-cache ports;
/// load_pipes only adds to ls_pipes | | frontend_width    | fetch_width, decode_width, rename_width
/// | one in-order pipeline: the narrowest stage binds, real cores keep them equal | | fetch |
/// fetch_buffers, icache_fills             | instruction supply under I-cache misses | |
/// branch_prediction | bp, bp_miss_pct                         | bp_miss_pct only matters with the
/// simple predictor | | caches            | l1d_kb, l1i_kb, l2_kb                   | the cache
/// hierarchy (docs/design.md §9) | | prefetcher        | pf_degree | the L1d stride prefetcher |
class PlayerSet {
public:
    /// What to do with parameters that no group lists.
    enum class Ungrouped { Singletons, Error };

    /// The twenty parameters, each its own player named by its key.
    PlayerSet();

    /// Same as the default constructor, spelled out at call sites.
    static PlayerSet individual();
    /// The ten default groups documented above.
    static PlayerSet defaultGroups();
    /// Groups by name (see the class comment for the rules). `context` prefixes error messages.
    static PlayerSet fromGroups(const std::map<std::string, std::vector<ParamId>>& groups,
                                Ungrouped ungrouped = Ungrouped::Singletons,
                                const std::string& context = "player groups");
    /// Parses the grouping document `{"groups": {name: [keys...]}}`.
    static PlayerSet fromJson(const nlohmann::json& document,
                              Ungrouped ungrouped = Ungrouped::Singletons,
                              const std::string& context = "player groups");
    /// Reads a grouping file; errors name the file.
    static PlayerSet load(const std::filesystem::path& file,
                          Ungrouped ungrouped = Ungrouped::Singletons);

    const std::vector<Player>& players() const { return players_; }
    std::size_t size() const { return players_.size(); }
    const Player& operator[](std::size_t i) const { return players_[i]; }
    /// Index of the player holding `id`.
    std::size_t playerOf(ParamId id) const { return owner_[static_cast<std::size_t>(id)]; }
    /// Index of the player called `name`, or nullopt.
    std::optional<std::size_t> find(std::string_view name) const;
    /// Like find() but throws a bad-input error listing the player names.
    std::size_t require(std::string_view name) const;
    /// The names joined by ", ".
    std::string nameList() const;

    /// Whether any of the player's parameters differs between the two configurations.
    bool differs(std::size_t player, const CoreConfig& baseline, const CoreConfig& target) const;

    /// `{"groups": {name: [keys...]}}` with every player (singletons as one-key groups), which
    /// fromJson() reads back to an equal set.
    nlohmann::json toJson() const;

    bool operator==(const PlayerSet&) const = default;

private:
    explicit PlayerSet(std::vector<Player> players, const std::string& context);

    std::vector<Player> players_;
    std::vector<std::size_t> owner_; ///< ParamId → player index
};

} // namespace concorde
