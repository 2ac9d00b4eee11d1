# -*- coding=utf-8 -*-
# The data generator of seed 000 ("IvorySQL COPY vs MySQL LOAD"), kept as the reference
# peer for `make bench`. Unchanged but for the row count and output path, taken from
# the command line (the article wrote 10,000 x 1000 rows to bmsql_history.csv).
#   python3 contrib/seed000_generator.py ROWS OUT.csv
import csv
import random
import sys
import time
import string

header_list = ["hist_id", "h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data"]

g_count = 0

def random_list(n):
    data_list = []
    global g_count
    for i in range(n):
        g_count = g_count + 1
        l = [g_count,
        random.randint(0,1000),
        random.randint(0,1000),
        random.randint(0,1000),
        random.randint(0,1000),
        random.randint(0,1000),
        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime()),
        round(random.uniform(0, 9999.0), 2),
        ''.join(random.sample(string.ascii_letters + string.digits, 20))
        ]
        data_list.append(l)

    return data_list

rows, out = int(sys.argv[1]), sys.argv[2]
with open(out, mode="w", encoding="utf-8", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(header_list)
    for i in range(rows // 1000):
        writer.writerows(random_list(1000))
