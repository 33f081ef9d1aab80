#include "features/BlockHosts.h"

#include <algorithm>
#include <numeric>

namespace concorde {

BlockHosts::Assignment BlockHosts::of(const std::vector<std::vector<ParamId>>& blockParams) {
    std::vector<std::size_t> order(blockParams.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return blockParams[a].size() > blockParams[b].size();
    });
    std::vector<int> host(blockParams.size(), -1);
    std::vector<std::size_t> hosts;
    for (const std::size_t i : order) {
        const std::vector<ParamId>& params = blockParams[i];
        if (params.empty())
            continue;
        const auto holdsAll = [&](std::size_t h) {
            const std::vector<ParamId>& candidate = blockParams[h];
            return std::all_of(params.begin(), params.end(), [&](ParamId p) {
                return std::find(candidate.begin(), candidate.end(), p) != candidate.end();
            });
        };
        const auto found = std::find_if(hosts.begin(), hosts.end(), holdsAll);
        if (found == hosts.end()) {
            hosts.push_back(i);
            host[i] = static_cast<int>(i);
        } else {
            host[i] = static_cast<int>(*found);
        }
    }
    return {std::move(host), std::move(order)};
}

} // namespace concorde
