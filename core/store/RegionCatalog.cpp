#include "store/RegionCatalog.h"

#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"

#include <algorithm>
#include <map>
#include <set>

namespace concorde {

std::string RegionCatalog::Region::label() const {
    return program + " region " + std::to_string(regionIndex);
}

std::string RegionCatalog::Damage::label() const {
    if (program.empty())
        return "region id " + std::to_string(regionId);
    return program + " region " + std::to_string(regionIndex);
}

std::string RegionCatalog::Damage::describe() const {
    return label() + " (id " + std::to_string(regionId) + "), " + part + ": " + problem;
}

namespace {

/// `message` without a leading "`prefix`: " (the file and row the caller names itself).
std::string without(const std::string& message, const std::string& prefix) {
    if (message.rfind(prefix, 0) != 0)
        return message;
    std::string rest = message.substr(prefix.size());
    while (!rest.empty() && (rest.front() == ':' || rest.front() == ' '))
        rest.erase(rest.begin());
    return rest;
}

} // namespace

RegionCatalog RegionCatalog::read(FeatureDatabase& database) {
    RegionCatalog catalog;
    catalog.databasePath_ = database.path().string();
    std::map<std::int64_t, std::vector<RegionRow>> byProgram;
    std::map<std::int64_t, std::string> names;
    for (const ProgramRow& program : database.programs())
        names[program.id] = program.name;
    std::vector<FeatureDatabase::DamagedRegionRow> damagedRows;
    for (const RegionRow& row : database.regions(damagedRows)) {
        if (!row.complete)
            continue;
        if (!names.count(row.programId)) {
            catalog.damaged_.push_back(
                {row.id, row.programId, "", row.regionIndex, "regions row",
                 "belongs to no program (program_id " + std::to_string(row.programId) + ")"});
            continue;
        }
        byProgram[row.programId].push_back(row);
    }
    // An incomplete region is not in the catalog anyway; only complete ones are lost to damage.
    for (const FeatureDatabase::DamagedRegionRow& row : damagedRows) {
        if (!row.complete)
            continue;
        const auto name = names.find(row.programId);
        catalog.damaged_.push_back(
            {row.id, row.programId, name == names.end() ? "" : name->second, row.regionIndex,
             "regions row",
             ::concorde::without(row.problem, catalog.databasePath_ + ": regions row " +
                                                  std::to_string(row.id))});
    }
    std::sort(catalog.damaged_.begin(), catalog.damaged_.end(),
              [](const Damage& a, const Damage& b) { return a.regionId < b.regionId; });
    for (auto& [programId, rows] : byProgram) {
        std::sort(rows.begin(), rows.end(), [](const RegionRow& a, const RegionRow& b) {
            return a.regionIndex < b.regionIndex;
        });
        Program program{programId, names.at(programId), {}};
        for (const RegionRow& row : rows) {
            program.regions.push_back(catalog.regions_.size());
            catalog.regions_.push_back({row.id, programId, program.name, row.regionIndex,
                                        row.programStart, row.warmup, row.length, row.phase});
        }
        catalog.programs_.push_back(std::move(program));
    }
    return catalog;
}

RegionCatalog RegionCatalog::without(const std::vector<Damage>& damage) const {
    if (damage.empty())
        return *this;
    std::set<std::int64_t> gone;
    for (const Damage& d : damage)
        gone.insert(d.regionId);
    RegionCatalog rest;
    rest.databasePath_ = databasePath_;
    for (const Program& program : programs_) {
        Program copy{program.id, program.name, {}};
        for (const std::size_t r : program.regions) {
            if (gone.count(regions_[r].id))
                continue;
            copy.regions.push_back(rest.regions_.size());
            rest.regions_.push_back(regions_[r]);
        }
        if (!copy.regions.empty())
            rest.programs_.push_back(std::move(copy));
    }
    rest.damaged_ = damaged_;
    rest.damaged_.insert(rest.damaged_.end(), damage.begin(), damage.end());
    std::sort(rest.damaged_.begin(), rest.damaged_.end(),
              [](const Damage& a, const Damage& b) { return a.regionId < b.regionId; });
    return rest;
}

std::vector<std::string> RegionCatalog::damagedPrograms() const {
    std::map<std::int64_t, std::string> byId;
    for (const Damage& d : damaged_)
        byId.emplace(d.programId, d.program.empty() ? d.label() : d.program);
    std::vector<std::string> names;
    for (const auto& [id, name] : byId)
        names.push_back(name);
    return names;
}

std::vector<RegionCatalog::Damage> RegionCatalog::damageOf(const std::string& program) const {
    std::vector<Damage> result;
    for (const Damage& d : damaged_)
        if (d.program == program)
            result.push_back(d);
    return result;
}

std::string RegionCatalog::damageSummary() const {
    if (damaged_.empty())
        return {};
    std::string text = std::to_string(damaged_.size()) + " damaged region" +
                       (damaged_.size() == 1 ? "" : "s") + " skipped: ";
    for (std::size_t i = 0; i < damaged_.size(); ++i)
        text += (i ? "; " : "") + damaged_[i].describe();
    return text;
}

std::vector<std::string> RegionCatalog::programNames() const {
    std::vector<std::string> names;
    for (const Program& program : programs_)
        names.push_back(program.name);
    return names;
}

bool RegionCatalog::hasProgram(const std::string& name) const {
    return std::any_of(programs_.begin(), programs_.end(),
                       [&](const Program& p) { return p.name == name; });
}

const RegionCatalog::Program& RegionCatalog::program(const std::string& name) const {
    for (const Program& program : programs_)
        if (program.name == name)
            return program;
    const std::vector<Damage> damage = damageOf(name);
    if (!damage.empty()) {
        std::string list;
        for (const Damage& d : damage)
            list += (list.empty() ? "" : "; ") + d.describe();
        throw badInput(databasePath_ + ": every region of '" + name +
                       "' is damaged, nothing of it can be read (" + list +
                       "); concorde validate-db lists all damage");
    }
    std::string list;
    for (const Program& program : programs_)
        list += (list.empty() ? "" : ", ") + program.name;
    throw usageError("the database has no program '" + name + "' (it has: " + list + ")");
}

RegionCatalog RegionCatalog::only(const std::vector<std::string>& names) const {
    if (names.empty())
        return *this;
    for (const std::string& name : names)
        if (damageOf(name).empty())
            (void)program(name); // the usage error for an unknown name
    RegionCatalog subset;
    subset.databasePath_ = databasePath_;
    for (const Damage& d : damaged_)
        if (std::find(names.begin(), names.end(), d.program) != names.end())
            subset.damaged_.push_back(d);
    for (const Program& program : programs_) {
        if (std::find(names.begin(), names.end(), program.name) == names.end())
            continue;
        Program copy{program.id, program.name, {}};
        for (const std::size_t r : program.regions) {
            copy.regions.push_back(subset.regions_.size());
            subset.regions_.push_back(regions_[r]);
        }
        subset.programs_.push_back(std::move(copy));
    }
    return subset;
}

} // namespace concorde
