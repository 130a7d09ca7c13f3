"""catsim (maximum likelihood, maximum information) on the bank and the very
answers `parla learning simulate-placement --export DIR` wrote: RMSE of the
ability estimate after 10, 20 and 30 items, for comparison with ours."""
import csv
import sys

import numpy as np
from catsim.estimation import NumericalSearchEstimator
from catsim.item_bank import ItemBank
from catsim.selection import MaxInfoSelector

directory = sys.argv[1]
with open(f"{directory}/bank.csv") as file:
    rows = list(csv.DictReader(file))
bank = ItemBank(np.array([[float(r["a"]), float(r["b"]), 0.0, 1.0] for r in rows]))
with open(f"{directory}/answers.csv") as file:
    reader = csv.reader(file)
    next(reader)
    learners = [(float(row[1]), [c == "1" for c in row[2:]]) for row in reader]

selector, estimator = MaxInfoSelector(), NumericalSearchEstimator()
lengths = [10, 20, 30]
errors = {length: [] for length in lengths}
for theta, answers in learners:
    administered, responses, estimate = [], [], 0.0
    for count in range(1, max(lengths) + 1):
        item = selector.select(item_bank=bank, administered_items=administered, est_theta=estimate)
        administered.append(item)
        responses.append(answers[item])
        estimate = estimator.estimate(item_bank=bank, administered_items=administered, response_vector=responses, est_theta=estimate)
        if count in errors:
            errors[count].append(estimate - theta)
print("| fixed length | catsim ML: RMSE |")
print("|---:|---:|")
for length in lengths:
    values = np.array(errors[length])
    print(f"| {length} | {np.sqrt(np.mean(values ** 2)):.3f} |")
