#include "CommandTable.h"

#include "BoundsCommand.h"
#include "BuildDbCommand.h"
#include "CheckMonotoneCommand.h"
#include "DatasetCommand.h"
#include "DiagnoseCommand.h"
#include "EvaluateCommand.h"
#include "ExportChampSimCommand.h"
#include "ImportChampSimCommand.h"
#include "InfoCommand.h"
#include "LabelCommand.h"
#include "MergeDatasetCommand.h"
#include "MergeDbCommand.h"
#include "MicrobenchCommand.h"
#include "MigrateDbCommand.h"
#include "PhasesCommand.h"
#include "PredictCommand.h"
#include "ShapleyCommand.h"
#include "SimulateCommand.h"
#include "TraceCommand.h"
#include "TrainCommand.h"
#include "ValidateDbCommand.h"

namespace concorde::cli {

std::vector<std::unique_ptr<Command>> makeAllCommands() {
    std::vector<std::unique_ptr<Command>> commands;
    commands.push_back(std::make_unique<TraceCommand>());
    commands.push_back(std::make_unique<InfoCommand>());
    commands.push_back(std::make_unique<MicrobenchCommand>());
    commands.push_back(std::make_unique<SimulateCommand>());
    commands.push_back(std::make_unique<DiagnoseCommand>());
    commands.push_back(std::make_unique<BoundsCommand>());
    commands.push_back(std::make_unique<BuildDbCommand>());
    commands.push_back(std::make_unique<LabelCommand>());
    commands.push_back(std::make_unique<DatasetCommand>());
    commands.push_back(std::make_unique<TrainCommand>());
    commands.push_back(std::make_unique<EvaluateCommand>());
    commands.push_back(std::make_unique<PredictCommand>());
    commands.push_back(std::make_unique<CheckMonotoneCommand>());
    commands.push_back(std::make_unique<ShapleyCommand>());
    commands.push_back(std::make_unique<PhasesCommand>());
    commands.push_back(std::make_unique<MergeDbCommand>());
    commands.push_back(std::make_unique<MergeDatasetCommand>());
    commands.push_back(std::make_unique<ValidateDbCommand>());
    commands.push_back(std::make_unique<MigrateDbCommand>());
    commands.push_back(std::make_unique<ImportChampSimCommand>());
    commands.push_back(std::make_unique<ExportChampSimCommand>());
    return commands;
}

} // namespace concorde::cli
