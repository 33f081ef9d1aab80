#include "attribution/PlayerSet.h"

#include "common/ConcordeError.h"
#include "params/ParameterSpace.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace concorde {

namespace {

std::vector<Player> singletons() {
    std::vector<Player> players;
    for (const auto& spec : ParameterSpace::all())
        players.push_back({spec.key, {spec.id}});
    return players;
}

} // namespace

PlayerSet::PlayerSet() : PlayerSet(singletons(), "parameters") {}

PlayerSet::PlayerSet(std::vector<Player> players, const std::string& context)
    : players_(std::move(players)), owner_(kParamCount, kParamCount) {
    std::set<std::string> names;
    for (std::size_t p = 0; p < players_.size(); ++p) {
        Player& player = players_[p];
        if (player.name.empty())
            throw badInput(context + ": a group has an empty name");
        if (player.params.empty())
            throw badInput(context + ": group '" + player.name + "' lists no parameter");
        if (!names.insert(player.name).second)
            throw badInput(context + ": the player name '" + player.name +
                           "' is used twice (a group may not take the key of a parameter it "
                           "does not contain, since that parameter becomes a player of its own)");
        std::sort(player.params.begin(), player.params.end());
        for (ParamId id : player.params) {
            std::size_t& owner = owner_[index(id)];
            if (owner != kParamCount) {
                const std::string& key = ParameterSpace::spec(id).key;
                if (owner == p)
                    throw badInput(context + ": group '" + player.name + "' lists parameter '" +
                                   key + "' twice");
                throw badInput(context + ": parameter '" + key + "' is in group '" +
                               players_[owner].name + "' and in group '" + player.name +
                               "'; a parameter may belong to one group only");
            }
            owner = p;
        }
    }
    for (std::size_t i = 0; i < kParamCount; ++i)
        if (owner_[i] == kParamCount)
            throw badInput(context + ": parameter '" + ParameterSpace::all()[i].key +
                           "' belongs to no player");
    // Canonical order: by first parameter, so output order never depends on how groups were
    // written (JSON objects are unordered).
    std::sort(players_.begin(), players_.end(),
              [](const Player& a, const Player& b) { return a.params.front() < b.params.front(); });
    for (std::size_t p = 0; p < players_.size(); ++p)
        for (ParamId id : players_[p].params)
            owner_[index(id)] = p;
}

PlayerSet PlayerSet::individual() {
    return PlayerSet();
}

PlayerSet PlayerSet::defaultGroups() {
    using P = ParamId;
    return fromGroups(
        {
            {"window", {P::Rob}},
            {"commit", {P::CommitWidth}},
            {"ldst_queues", {P::LoadQueue, P::StoreQueue}},
            {"issue", {P::AluIssue, P::FpIssue, P::LsIssue}},
            {"ldst_pipes", {P::LsPipes, P::LoadPipes}},
            {"frontend_width", {P::FetchWidth, P::DecodeWidth, P::RenameWidth}},
            {"fetch", {P::FetchBuffers, P::IcacheFills}},
            {"branch_prediction", {P::BranchPredictor, P::BpMissPct}},
            {"caches", {P::L1dKb, P::L1iKb, P::L2Kb}},
            {"prefetcher", {P::PrefetchDegree}},
        },
        Ungrouped::Error, "default player groups");
}

PlayerSet PlayerSet::fromGroups(const std::map<std::string, std::vector<ParamId>>& groups,
                                Ungrouped ungrouped, const std::string& context) {
    std::vector<Player> players;
    std::vector<bool> listed(kParamCount, false);
    for (const auto& [name, params] : groups) {
        players.push_back({name, params});
        for (ParamId id : params) {
            if (index(id) >= kParamCount)
                throw badInput(context + ": group '" + name + "' holds an invalid parameter id");
            listed[index(id)] = true;
        }
    }
    std::string missing;
    for (const auto& spec : ParameterSpace::all()) {
        if (listed[index(spec.id)])
            continue;
        if (ungrouped == Ungrouped::Error)
            missing += (missing.empty() ? "" : ", ") + spec.key;
        else
            players.push_back({spec.key, {spec.id}});
    }
    if (!missing.empty())
        throw badInput(context + ": every parameter must be in a group; missing: " + missing);
    return PlayerSet(std::move(players), context);
}

PlayerSet PlayerSet::fromJson(const nlohmann::json& document, Ungrouped ungrouped,
                              const std::string& context) {
    if (!document.is_object() || !document.contains("groups"))
        throw badInput(context + ": expected a JSON object {\"groups\": {name: [parameter keys]}}");
    for (const auto& [key, value] : document.items())
        if (key != "groups")
            throw badInput(context + ": unknown key '" + key + "' (only \"groups\" is allowed)");
    const nlohmann::json& groups = document.at("groups");
    if (!groups.is_object())
        throw badInput(context + ": \"groups\" must be an object of name: [parameter keys]");
    std::map<std::string, std::vector<ParamId>> parsed;
    for (const auto& [name, members] : groups.items()) {
        if (!members.is_array())
            throw badInput(context + ": group '" + name + "' must be an array of parameter keys");
        std::vector<ParamId>& params = parsed[name];
        for (const auto& member : members) {
            if (!member.is_string())
                throw badInput(context + ": group '" + name + "' holds " + member.dump() +
                               ", which is not a parameter key");
            const std::string key = member.get<std::string>();
            const auto id = ParameterSpace::find(key);
            if (!id)
                throw badInput(context + ": group '" + name + "' names unknown parameter '" + key +
                               "'; known parameters: " + ParameterSpace::keyList());
            if (std::find(params.begin(), params.end(), *id) != params.end())
                throw badInput(context + ": group '" + name + "' lists parameter '" + key +
                               "' twice");
            params.push_back(*id);
        }
    }
    return fromGroups(parsed, ungrouped, context);
}

PlayerSet PlayerSet::load(const std::filesystem::path& file, Ungrouped ungrouped) {
    std::ifstream in(file);
    if (!in)
        throw badInput("cannot open player groups file " + file.string());
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw badInput("player groups file " + file.string() + " is not valid JSON: " + e.what());
    }
    return fromJson(document, ungrouped, file.string());
}

std::optional<std::size_t> PlayerSet::find(std::string_view name) const {
    for (std::size_t p = 0; p < players_.size(); ++p)
        if (players_[p].name == name)
            return p;
    return std::nullopt;
}

std::size_t PlayerSet::require(std::string_view name) const {
    if (const auto p = find(name))
        return *p;
    throw badInput("unknown player '" + std::string(name) + "'; players: " + nameList());
}

std::string PlayerSet::nameList() const {
    std::string list;
    for (const Player& player : players_)
        list += (list.empty() ? "" : ", ") + player.name;
    return list;
}

bool PlayerSet::differs(std::size_t player, const CoreConfig& baseline,
                        const CoreConfig& target) const {
    for (ParamId id : players_.at(player).params)
        if (baseline.value(id) != target.value(id))
            return true;
    return false;
}

nlohmann::json PlayerSet::toJson() const {
    nlohmann::json groups = nlohmann::json::object();
    for (const Player& player : players_) {
        nlohmann::json keys = nlohmann::json::array();
        for (ParamId id : player.params)
            keys.push_back(ParameterSpace::spec(id).key);
        groups[player.name] = std::move(keys);
    }
    return {{"groups", std::move(groups)}};
}

} // namespace concorde
