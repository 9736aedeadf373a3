-- TPC-H Q22: Global Sales Opportunity Query
select
    cntrycode,
    count(*) AS numcust,
    sum(c_acctbal) AS totacctbal
from
    (
        select
            substr(c_phone, 1, 2) AS cntrycode,
            c_acctbal
        from
            customer
        where
            substr(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17')
            and c_acctbal > (
                select
                    avg(c_acctbal)
                from
                    customer
                where
                    c_acctbal > 0.00
                    and substr(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17')
            )
            and not exists (
                select
                    *
                from
                    orders
                where
                    o_custkey = c_custkey
            )
    ) custsale
group by
    cntrycode
order by
    cntrycode
