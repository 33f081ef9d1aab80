#include "explore/ShapleyJob.h"

#include "attribution/ProgramValue.h"
#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "explore/RegionValueFunction.h"

namespace concorde {

void ShapleyJob::check(const Request& request) {
    if (!request.predictor)
        throw usageError("a Shapley job needs a predictor (open a database with a model)");
    for (const auto& program : request.programs)
        (void)request.predictor->regionsOf(program); // usage error naming the loaded programs
    const ParameterGrid& grid = request.predictor->grid();
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        grid.require(spec.id, request.baseline.value(spec.id));
        grid.require(spec.id, request.target.value(spec.id));
    }
    // Constructing the attributor checks the options.
    (void)ShapleyAttributor(request.players, request.baseline, request.target, request.options);
}

ShapleyJob::ShapleyJob(Request request) : request_(std::move(request)) {
    check(request_);
}

ShapleyJob::~ShapleyJob() {
    cancel();
    wait();
}

AttributionReport ShapleyJob::run(const Request& request, const JobControl& job) {
    check(request);
    const ShapleyAttributor attributor(request.players, request.baseline, request.target,
                                       request.options);
    const std::vector<std::string>& names =
        request.programs.empty() ? request.predictor->programs() : request.programs;
    std::vector<ProgramValue> programs;
    programs.reserve(names.size());
    for (const auto& name : names)
        programs.push_back(RegionValueFunction::programValue(request.predictor, name));
    return attributor.attribute(programs, job);
}

void ShapleyJob::start(std::function<void(State)> finished) {
    State expected = State::Idle;
    if (!state_.compare_exchange_strong(expected, State::Running))
        throw usageError("a Shapley job runs once");
    thread_ = std::thread([this, finished = std::move(finished)] {
        const JobControl job = job_.nested(
            [this](const JobProgress& progress) { progress_.store(progress.fraction()); });
        State end = State::Finished;
        try {
            AttributionReport report = run(request_, job);
            std::lock_guard lock(mutex_);
            report_ = std::move(report);
        } catch (const std::exception& e) {
            end = job.cancelled() ? State::Cancelled : State::Failed;
            std::lock_guard lock(mutex_);
            error_ = e.what();
        }
        state_.store(end);
        if (finished)
            finished(end);
    });
}

void ShapleyJob::cancel() {
    job_.cancel();
}

void ShapleyJob::wait() {
    if (thread_.joinable())
        thread_.join();
}

const AttributionReport& ShapleyJob::report() const {
    if (state_.load() != State::Finished)
        throw usageError("the Shapley job has no result (it has not finished)");
    return report_;
}

std::string ShapleyJob::error() const {
    std::lock_guard lock(mutex_);
    return error_;
}

} // namespace concorde
