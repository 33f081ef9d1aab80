#include "store/RegionCatalog.h"

#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"

#include <algorithm>
#include <map>

namespace concorde {

std::string RegionCatalog::Region::label() const {
    return program + " region " + std::to_string(regionIndex);
}

RegionCatalog RegionCatalog::read(FeatureDatabase& database) {
    RegionCatalog catalog;
    catalog.databasePath_ = database.path().string();
    std::map<std::int64_t, std::vector<RegionRow>> byProgram;
    std::map<std::int64_t, std::string> names;
    for (const ProgramRow& program : database.programs())
        names[program.id] = program.name;
    for (const RegionRow& row : database.regions()) {
        if (!row.complete)
            continue;
        if (!names.count(row.programId))
            throw badInput(catalog.databasePath_ + ": region " + std::to_string(row.id) +
                           " belongs to no program");
        byProgram[row.programId].push_back(row);
    }
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
    std::string list;
    for (const Program& program : programs_)
        list += (list.empty() ? "" : ", ") + program.name;
    throw usageError("the database has no program '" + name + "' (it has: " + list + ")");
}

RegionCatalog RegionCatalog::only(const std::vector<std::string>& names) const {
    if (names.empty())
        return *this;
    for (const std::string& name : names)
        (void)program(name); // the usage error for an unknown name
    RegionCatalog subset;
    subset.databasePath_ = databasePath_;
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
